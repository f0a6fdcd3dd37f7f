import { rmSync } from 'node:fs';
import type { RunningPostgres, TemporalDevServer } from '../../scripts/services';
import type { AwsFront } from '../helpers/aws';
import { type MotoServer, stopMoto } from './moto';
import { type StripeMockServer, stopStripeMock } from './stripe-mock';

export default async function globalTeardown(): Promise<void> {
  const services = (
    globalThis as {
      __sentinelServices?: {
        postgres: RunningPostgres;
        temporal: TemporalDevServer;
        moto: MotoServer;
        stripeMock: StripeMockServer;
        awsFront: AwsFront;
        scratch: string;
      };
    }
  ).__sentinelServices;
  if (!services) return;
  await services.awsFront.close();
  await Promise.allSettled([
    services.temporal.env.teardown(),
    services.postgres.stop(),
    stopMoto(services.moto),
    stopStripeMock(services.stripeMock),
  ]);
  rmSync(services.scratch, { recursive: true, force: true });
}
