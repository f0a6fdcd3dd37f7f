import { DescribeHubCommand, SecurityHubClient } from '@aws-sdk/client-securityhub';
import type { SecurityHubRegion } from '../../../domain/scans/inventory';
import { unlessAbsent } from './failures';
import { type ReadContext, regionalPart } from './reader';

// Security Hub in every enabled region. DescribeHub answers InvalidAccessException when the account is not
// subscribed in the region: that is Security Hub off, not a refusal (a refusal is AccessDeniedException).

export const securityHubPart = regionalPart({
  part: 'securityHub',
  async read({ session }: ReadContext, region: string): Promise<SecurityHubRegion> {
    const securityhub = session.client((config) => new SecurityHubClient(config), region);
    const hub = await unlessAbsent(() => securityhub.send(new DescribeHubCommand({})), 'InvalidAccess');
    return { region, enabled: hub?.HubArn !== undefined };
  },
  assemble: (slices) => ({ regions: slices }),
});
