import autocannon from 'autocannon';
import { freePort } from '../scripts/local-services';
import { type CpuRoles, cpuMeter, startHelloWorld } from './processes';

export interface ThroughputRow {
  name: string; requestsPerSecond: number; p50: number; p99: number; errors: number;
  /** Cores busy during the measurement: `server` is the process under load. */
  cpu: CpuRoles;
  /** Answers by HTTP status. */
  statusCodes: Record<string, number>;
}

export const CONNECTIONS = 50;

interface Measurement {
  name: string; url: string; seconds: number; serverPid: number; headers?: Record<string, string>;
  /** What each request sends, when not a plain GET of `url` (autocannon calls `setupRequest` before every request). */
  requests?: autocannon.Request[];
  /** Requests a second over all connections; unset: as fast as the server answers. */
  overallRate?: number;
  /** CONNECTIONS unless told. */
  connections?: number;
}

/** One endpoint under autocannon's load, with the cores each party used meanwhile. */
export async function measure({
  name, url, seconds, serverPid, headers = {}, requests, overallRate, connections = CONNECTIONS,
}: Measurement): Promise<ThroughputRow> {
  const meter = cpuMeter({ server: serverPid });
  const r = await autocannon({ url, connections, duration: seconds, headers, requests, overallRate });
  const cpu = meter();
  const errors = r.errors + r.timeouts + r.non2xx;
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]));
  console.log(`${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${errors}, `
    + `server ${cpu.server?.toFixed(2)} cores, status ${JSON.stringify(statusCodes)}`);
  return { name, requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors, cpu, statusCodes };
}

/**
 * API throughput against a bare Express hello-world measured in the same run (autocannon, 50 connections).
 * Both servers run in a process of their own; the load comes from this one.
 */
export async function benchApi({ url, apiPid, seconds, auth, awsAccountId }: {
  url: string; apiPid: number; seconds: number; auth: Record<string, string>; awsAccountId: string;
}): Promise<ThroughputRow[]> {
  const port = await freePort();
  const bare = await startHelloWorld(port);
  try {
    const api = { seconds, serverPid: apiPid };
    return [
      await measure({ name: 'bare Express hello-world', url: `http://127.0.0.1:${port}/`, seconds, serverPid: bare.pid }),
      await measure({ ...api, name: 'GET /billing/plans (public)', url: `${url}/billing/plans` }),
      await measure({ ...api, name: 'GET /me (authenticated, no listing)', url: `${url}/me`, headers: auth }),
      await measure({ ...api, name: 'GET /accounts (authenticated)', url: `${url}/accounts`, headers: auth }),
      await measure({
        ...api, name: 'GET /accounts/{id}/signals (authenticated)', url: `${url}/accounts/${awsAccountId}/signals`, headers: auth,
      }),
    ];
  } finally {
    await bare.stop();
  }
}
