import {
  AutoScalingClient,
  paginateDescribeAutoScalingGroups,
  paginateDescribeLaunchConfigurations,
} from '@aws-sdk/client-auto-scaling';
import type { AutoScaling, AutoScalingGroup, LaunchConfiguration } from '../../../domain/scans/compute';
import { foldPages, type ReadContext, regionalPart } from './reader';
import { userDataSecrets } from './user-data';

// Auto Scaling, region by region: the launch configurations (with their user data searched for secrets as it is
// read) and the groups, each listed whole with its paginator.

export const autoScalingPart = regionalPart({
  part: 'autoScaling',
  async read({ session }: ReadContext, region: string): Promise<AutoScaling> {
    const client = session.client((config) => new AutoScalingClient(config), region);
    const launchConfigurations = await foldPages(
      paginateDescribeLaunchConfigurations({ client }, {}),
      [] as LaunchConfiguration[],
      (into, page) => {
        for (const lc of page.LaunchConfigurations ?? []) {
          if (!lc.LaunchConfigurationName) continue;
          into.push({
            name: lc.LaunchConfigurationName,
            region,
            metadata: {
              httpTokens: lc.MetadataOptions?.HttpTokens ?? null,
              httpEndpoint: lc.MetadataOptions?.HttpEndpoint ?? null,
            },
            publicIp: lc.AssociatePublicIpAddress === true,
            secrets: userDataSecrets(lc.UserData),
          });
        }
        return into;
      },
    );
    const groups = await foldPages(
      paginateDescribeAutoScalingGroups({ client }, {}),
      [] as AutoScalingGroup[],
      (into, page) => {
        for (const g of page.AutoScalingGroups ?? []) {
          if (!g.AutoScalingGroupName) continue;
          into.push({
            name: g.AutoScalingGroupName,
            arn: g.AutoScalingGroupARN ?? g.AutoScalingGroupName,
            region,
            launchConfiguration: g.LaunchConfigurationName ?? null,
            availabilityZones: g.AvailabilityZones ?? [],
            healthCheckType: g.HealthCheckType ?? 'EC2',
            loadBalanced: (g.LoadBalancerNames ?? []).length > 0 || (g.TargetGroupARNs ?? []).length > 0,
          });
        }
        return into;
      },
    );
    return { launchConfigurations, groups };
  },
  assemble: (slices) => ({
    launchConfigurations: slices.flatMap((s) => s.launchConfigurations),
    groups: slices.flatMap((s) => s.groups),
  }),
});
