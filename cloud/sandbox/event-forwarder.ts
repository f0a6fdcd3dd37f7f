import { expectedForwarderRules } from '../../domain/checks/event-forwarding';
import { API_DESTINATION_NAME, CONNECTION_NAME } from '../../domain/onboarding/forwarder-templates';
import type { EventForwarder, ForwarderRegion } from '../../domain/scans/inventory';

// The event forwarder as the onboarding templates leave it, in every region given: the sandbox's accounts set it up
// as asked, so `npm start` shows a forwarder that delivers. Tests build their broken forwarders from it.

/** One region's forwarder as the templates create it: authorized, active, posting to `endpoint`, every rule on it. */
export function healthyForwarderRegion({
  awsAccountId,
  region,
  endpoint,
}: {
  awsAccountId: string;
  region: string;
  endpoint: string;
}): ForwarderRegion {
  const arn = (resource: string) => `arn:aws:events:${region}:${awsAccountId}:${resource}`;
  const connectionArn = arn(`connection/${CONNECTION_NAME}/3f1c2a9e-5b7d-4e60-9a1b-${awsAccountId}`);
  const destinationArn = arn(`api-destination/${API_DESTINATION_NAME}/8d4e6f10-2c3b-4a5d-8e7f-${awsAccountId}`);
  return {
    region,
    connection: { arn: connectionArn, state: 'AUTHORIZED' },
    apiDestination: { arn: destinationArn, state: 'ACTIVE', endpoint, connectionArn },
    rules: expectedForwarderRules(region).map((name) => ({ name, state: 'ENABLED', targetArns: [destinationArn] })),
  };
}

/**
 * The account's forwarder: healthy in every region when Sentinel expects one (`endpoint` given), or nothing read when
 * the account was connected without event forwarding.
 */
export function healthyForwarder({
  awsAccountId,
  regions,
  endpoint,
}: {
  awsAccountId: string;
  regions: readonly string[];
  endpoint: string | undefined;
}): EventForwarder {
  if (endpoint === undefined) return { expectedEndpoint: null, regions: [] };
  return {
    expectedEndpoint: endpoint,
    regions: regions.map((region) => healthyForwarderRegion({ awsAccountId, region, endpoint })),
  };
}
