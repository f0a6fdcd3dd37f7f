import {
  ConfigServiceClient,
  DescribeConfigurationRecordersCommand,
  DescribeConfigurationRecorderStatusCommand,
} from '@aws-sdk/client-config-service';
import type { ConfigRegion } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { type ReadContext, regionalPart } from './reader';

// AWS Config in every enabled region: the account's configuration recorders, what each records (every supported
// resource type or a chosen few, global resource types or not) and whether it is recording. Service-linked
// recorders (those with a service principal) record only for the AWS service that created them, not for the
// account, so they are left out. A region without a recorder answers empty lists.

export const configRecordersPart = regionalPart({
  part: 'configRecorders',
  async read({ session }: ReadContext, region: string): Promise<ConfigRegion> {
    const config = session.client((c) => new ConfigServiceClient(c), region);
    const [{ ConfigurationRecorders = [] }, { ConfigurationRecordersStatus = [] }] = await settleAll([
      config.send(new DescribeConfigurationRecordersCommand({})),
      config.send(new DescribeConfigurationRecorderStatusCommand({})),
    ]);
    const statuses = new Map(ConfigurationRecordersStatus.map((s) => [s.name, s]));
    return {
      region,
      recorders: ConfigurationRecorders.filter((r) => !r.servicePrincipal).map(({ name = '', recordingGroup }) => {
        const status = statuses.get(name);
        return {
          name,
          recording: status?.recording ?? false,
          lastStatus: status?.lastStatus ?? null,
          // AWS answers every recorder's recording group: an answer without one is never taken for all types.
          allSupported: recordingGroup?.allSupported === true,
          includeGlobalResourceTypes: recordingGroup?.includeGlobalResourceTypes === true,
        };
      }),
    };
  },
  assemble: (slices) => ({ regions: slices }),
});
