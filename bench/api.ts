import autocannon from 'autocannon';
import express from 'express';
import { type BenchEnvironment, listen } from './environment';

export interface ThroughputRow { name: string; requestsPerSecond: number; p50: number; p99: number; errors: number }

const CONNECTIONS = 50;

async function measure(name: string, url: string, seconds: number, headers: Record<string, string> = {}): Promise<ThroughputRow> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const errors = r.errors + r.timeouts + r.non2xx;
  console.log(`${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${errors}`);
  return { name, requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

/** API throughput against a bare Express hello-world measured in the same run (autocannon, 50 connections). */
export async function benchApi(env: BenchEnvironment, { seconds, auth, awsAccountId }: { seconds: number; auth: Record<string, string>; awsAccountId: string }) {
  const baseline = express();
  baseline.get('/', (_req, res) => {
    res.json({ hello: 'world' });
  });
  const bare = await listen(baseline);
  try {
    return [
      await measure('bare Express hello-world', `${bare.url}/`, seconds),
      await measure('GET /billing/plans (public)', `${env.url}/billing/plans`, seconds),
      await measure('GET /accounts (authenticated)', `${env.url}/accounts`, seconds, auth),
      await measure('GET /accounts/{id}/signals (authenticated)', `${env.url}/accounts/${awsAccountId}/signals`, seconds, auth),
    ];
  } finally {
    bare.close();
  }
}

export { CONNECTIONS };
