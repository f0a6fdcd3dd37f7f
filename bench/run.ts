import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import autocannon from 'autocannon';
import express from 'express';
import { createApp } from '../api/app';
import { createCloudProvider } from '../cloud';
import { loadConfig } from '../config/config';
import { createLogger } from '../config/logger';
import { createDb } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { ensureDatabase, freePort, startPostgres } from '../scripts/services';

// `npm run bench`: API throughput against a bare Express hello-world measured in the same run, so the
// ratio (not the absolute numbers, which depend on this shared machine) is what we compare over time.
// Results go to BENCHMARKS.md with the machine and the date.

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;

interface Result { name: string; requestsPerSecond: number; p50: number; p99: number; errors: number }

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  const errors = r.errors + r.timeouts + r.non2xx;
  console.log(`${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${errors}`);
  return { name, requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

function listen(app: express.Express): Promise<{ url: string; close: () => void }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    });
  });
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sentinel-bench-'));
  chmodSync(scratch, 0o755);
  const pgPort = await freePort();
  const postgres = await startPostgres({ dataDir: path.join(scratch, 'pg'), port: pgPort, persistent: false });
  await ensureDatabase(postgres.url('postgres'), 'bench');
  const db = createDb({ url: postgres.url('bench'), maxConnections: 10 });
  await migrateToLatest(db);
  const config = loadConfig({ DATABASE_URL: postgres.url('bench'), JWT_SECRET: 'b'.repeat(48), LOG_LEVEL: 'silent' });
  // These endpoints never reach Temporal; a lazy connection is never dialled.
  const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}` });
  const log = createLogger({ level: 'silent', name: 'bench' });
  const app = createApp({ db, config, log, temporal: new Client({ connection }), cloud: createCloudProvider({ config: config.cloud, log }) });

  const baseline = express();
  baseline.get('/', (_req, res) => { res.json({ hello: 'world' }); });

  const [service, bare] = await Promise.all([listen(app), listen(baseline)]);
  try {
    const signup = await fetch(`${service.url}/auth/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password', name: 'Bench' }),
    });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
    const login = await fetch(`${service.url}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }),
    });
    const { id_token: idToken } = (await login.json()) as { id_token: string };
    const auth = { authorization: `Bearer ${idToken}` };

    const results = [
      await measure('bare Express hello-world', `${bare.url}/`),
      await measure('GET /billing/plans (public)', `${service.url}/billing/plans`),
      await measure('GET /me (authenticated, 2 queries)', `${service.url}/me`, auth),
      await measure('GET /accounts (authenticated)', `${service.url}/accounts`, auth),
    ];
    writeReport(results);
  } finally {
    service.close();
    bare.close();
    await connection.close().catch(() => undefined);
    await db.destroy();
    await postgres.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function writeReport(results: Result[]): void {
  const base = results[0]!;
  const rows = results.map((r) =>
    `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${(r.requestsPerSecond / base.requestsPerSecond).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  const report = `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}),
${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per
endpoint, all in one run against embedded PostgreSQL. Absolute numbers depend on the (shared) machine; the ratio to the bare
Express baseline measured in the same run is the figure to compare.

| endpoint | req/s | ratio to baseline | p50 ms | p99 ms | errors |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
  writeFileSync(path.join(__dirname, '..', 'BENCHMARKS.md'), report);
  console.log('\nWritten to BENCHMARKS.md');
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
