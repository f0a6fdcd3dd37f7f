import { rmSync } from 'node:fs';
import type { RunningPostgres, TemporalDevServer } from '../../scripts/services';
import { type MotoServer, stopMoto } from './moto';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __sentinelServices?: { postgres: RunningPostgres; temporal: TemporalDevServer; moto: MotoServer; scratch: string } })
    .__sentinelServices;
  if (!services) return;
  await Promise.allSettled([services.temporal.env.teardown(), services.postgres.stop(), stopMoto(services.moto)]);
  rmSync(services.scratch, { recursive: true, force: true });
}
