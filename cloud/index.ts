import type { Config } from '../config/config';
import type { Logger } from '../config/logger';
import { createAwsProvider } from './aws/provider';
import { createSandboxProvider } from './sandbox/provider';
import type { CloudProvider } from './types';

export function createCloudProvider({ config, log }: { config: Config['cloud']; log: Logger }): CloudProvider {
  if (config.provider === 'sandbox') return createSandboxProvider({ sentinelAccountId: config.sentinelAccountId });
  return createAwsProvider({
    region: config.region,
    endpointUrl: config.endpointUrl,
    sentinelAccountId: config.sentinelAccountId,
    maxAttempts: config.maxAttempts,
    maxConcurrentCalls: config.maxConcurrentCalls,
    log: log.child({ component: 'aws' }),
  });
}
