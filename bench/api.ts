import autocannon from 'autocannon';
import { freePort } from '../scripts/local-services';
import { type CpuRoles, cpuMeter, startHelloWorld } from './processes';
import { type SteadyLatency, steadyLoad } from './steady-load';

export interface ThroughputRow {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Cores busy during the measurement: `server` is the process under load. */
  cpu: CpuRoles;
  /** Answers by HTTP status. */
  statusCodes: Record<string, number>;
}

export const CONNECTIONS = 50;

interface Measurement {
  name: string;
  url: string;
  seconds: number;
  serverPid: number;
  headers?: Record<string, string>;
  /** What each request sends, when not a plain GET of `url` (autocannon calls `setupRequest` before every request). */
  requests?: autocannon.Request[];
  /** Requests a second over all connections; unset: as fast as the server answers. */
  overallRate?: number;
  /** CONNECTIONS unless told. */
  connections?: number;
}

/** One endpoint under autocannon's load, with the cores each party used meanwhile. */
export async function measure({
  name,
  url,
  seconds,
  serverPid,
  headers = {},
  requests,
  overallRate,
  connections = CONNECTIONS,
}: Measurement): Promise<ThroughputRow> {
  const meter = cpuMeter({ server: serverPid });
  const r = await autocannon({ url, connections, duration: seconds, headers, requests, overallRate });
  const cpu = meter();
  const errors = r.errors + r.timeouts + r.non2xx;
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
  );
  console.log(
    `${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${errors}, ` +
      `server ${cpu.server?.toFixed(2)} cores, status ${JSON.stringify(statusCodes)}`,
  );
  return {
    name,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors,
    cpu,
    statusCodes,
  };
}

export interface SteadyRow extends SteadyLatency {
  name: string;
  /** Requests a second, sent on a fixed schedule over CONNECTIONS connections. */
  rate: number;
  cpu: CpuRoles;
}

/** One endpoint at a steady `rate` (bench/steady-load.ts), with the cores each party used meanwhile. */
async function measureSteady({
  name,
  url,
  seconds,
  serverPid,
  headers,
  rate,
}: {
  name: string;
  url: string;
  seconds: number;
  serverPid: number;
  headers?: Record<string, string>;
  rate: number;
}): Promise<SteadyRow> {
  const meter = cpuMeter({ server: serverPid });
  const latency = await steadyLoad({ url, rate, seconds, connections: CONNECTIONS, headers });
  const cpu = meter();
  console.log(
    `${name} at ${rate} req/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms, errors ${latency.errors}, ` +
      `server ${cpu.server?.toFixed(2)} cores`,
  );
  return { name, rate, cpu, ...latency };
}

export interface ApiResult {
  /** As fast as each server answers (autocannon): the throughput and its ratio to the baseline. */
  saturated: ThroughputRow[];
  /** At each of the steady rates: the latency a caller sees under that load. */
  steady: SteadyRow[];
}

/**
 * API throughput against a bare Express hello-world measured in the same run (autocannon, 50 connections), then the
 * latency of both at each of `steadyRates` requests a second over 50 connections. Both servers run in a process of
 * their own; the load comes from this one.
 */
export async function benchApi({
  url,
  apiPid,
  seconds,
  auth,
  awsAccountId,
  steadyRates,
}: {
  url: string;
  apiPid: number;
  seconds: number;
  auth: Record<string, string>;
  awsAccountId: string;
  steadyRates: readonly number[];
}): Promise<ApiResult> {
  const [port, prototypedPort] = [await freePort(), await freePort()];
  const bare = await startHelloWorld(port);
  const prototyped = await startHelloWorld(prototypedPort, { appPrototypes: true }).catch(async (err: unknown) => {
    await bare.stop();
    throw err;
  });
  try {
    const api = { seconds, serverPid: apiPid };
    const endpoints = [
      { name: 'bare Express hello-world', url: `http://127.0.0.1:${port}/`, seconds, serverPid: bare.pid },
      {
        name: 'bare Express hello-world, served as the API is (api/http-server.ts)',
        url: `http://127.0.0.1:${prototypedPort}/`,
        seconds,
        serverPid: prototyped.pid,
      },
      { ...api, name: 'GET /billing/plans (public)', url: `${url}/billing/plans` },
      { ...api, name: 'GET /me (authenticated, no listing)', url: `${url}/me`, headers: auth },
      { ...api, name: 'GET /accounts (authenticated)', url: `${url}/accounts`, headers: auth },
      {
        ...api,
        name: 'GET /accounts/{id}/signals (authenticated)',
        url: `${url}/accounts/${awsAccountId}/signals`,
        headers: auth,
      },
    ];
    const saturated: ThroughputRow[] = [];
    for (const endpoint of endpoints) saturated.push(await measure(endpoint));
    const steady: SteadyRow[] = [];
    for (const rate of steadyRates) {
      for (const endpoint of endpoints) steady.push(await measureSteady({ ...endpoint, rate }));
    }
    return { saturated, steady };
  } finally {
    await Promise.all([bare.stop(), prototyped.stop()]);
  }
}
