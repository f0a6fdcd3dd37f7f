import type { AutoScaling, AutoScalingGroup, LaunchConfiguration } from '../scans/compute';
import { failing, onPart } from './helpers';
import type { Check } from './types';
import { imdsv2Enforced, metadataDetail, userDataResult } from './user-data';

// Auto Scaling: what its launch configurations put on every instance they launch (user data with secrets, public
// addresses, IMDSv1), and groups that cannot survive the loss of a zone or keep serving from unhealthy instances.

/** Each group that launches from a launch configuration, with it (groups on launch templates are judged there). */
function groupsWithConfiguration({ groups, launchConfigurations }: AutoScaling) {
  const byKey = new Map(launchConfigurations.map((lc) => [`${lc.region}/${lc.name}`, lc]));
  return groups.flatMap((group): { group: AutoScalingGroup; lc: LaunchConfiguration }[] => {
    const lc = group.launchConfiguration ? byKey.get(`${group.region}/${group.launchConfiguration}`) : undefined;
    return lc ? [{ group, lc }] : [];
  });
}

const REPLACE_CONFIGURATION =
  'A launch configuration cannot be changed. Create a launch template with the setting (EC2 console > Launch ' +
  'templates > Create launch template, or from the configuration: Auto Scaling console > Launch configurations > the ' +
  'configuration > Copy to launch template), then point the group to it (Auto Scaling groups > the group > Edit > ' +
  'Launch template; or aws autoscaling update-auto-scaling-group --auto-scaling-group-name NAME --launch-template ' +
  "LaunchTemplateId=ID,Version='$Default') and start an instance refresh (aws autoscaling start-instance-refresh " +
  '--auto-scaling-group-name NAME) so running instances are replaced.';

export const AUTOSCALING_CHECKS: readonly Check[] = [
  {
    id: 'exposure.launch_configuration_secrets',
    service: 'autoscaling',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in Auto Scaling launch configuration user data',
    description:
      "The launch configuration's user data holds what looks like a credential (an access key, a private key, a " +
      'token, a password). Anyone allowed autoscaling:DescribeLaunchConfigurations reads it, and every instance the ' +
      'group launches serves it to its processes through the metadata service. Sentinel names the kind of secret and ' +
      'its line, never the value.',
    remediation:
      'Rotate the credential first: it must be taken as known. Keep it in Secrets Manager or SSM Parameter Store and ' +
      'fetch it at boot with the instance role. A launch configuration cannot be edited: create a launch template ' +
      'without the secret, move the groups that use the configuration to it (aws autoscaling ' +
      'update-auto-scaling-group --auto-scaling-group-name NAME --launch-template LaunchTemplateId=ID), then delete the ' +
      'configuration (Auto Scaling console > Launch configurations > Delete; or aws autoscaling ' +
      'delete-launch-configuration --launch-configuration-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/launch-configurations.html',
    prowler: ['autoscaling_find_secrets_ec2_launch_configuration'],
    evaluate: onPart('autoScaling', ({ launchConfigurations }) =>
      userDataResult(
        launchConfigurations.map((lc) => ({
          resource: lc.name,
          region: lc.region,
          where: `User data of launch configuration ${lc.name} in ${lc.region}`,
          secrets: lc.secrets,
        })),
      ),
    ),
  },
  {
    id: 'exposure.autoscaling_group_public_ip',
    service: 'autoscaling',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Auto Scaling group launches instances with public IP addresses',
    description:
      "The group's launch configuration asks for a public IPv4 address (AssociatePublicIpAddress), so every instance " +
      'it launches is reachable from the internet, guarded only by its security groups.',
    remediation: `${REPLACE_CONFIGURATION} In the template, set Network settings > Auto-assign public IP to Disable; serve internet traffic through a load balancer.`,
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/asg-in-vpc.html',
    controls: { 'aws-fsbp': ['Autoscaling.5'] },
    prowler: ['autoscaling_group_launch_configuration_no_public_ip'],
    evaluate: onPart('autoScaling', (value) =>
      failing(
        groupsWithConfiguration(value)
          .filter(({ lc }) => lc.publicIp)
          .map(({ group, lc }) => ({
            resource: group.arn,
            region: group.region,
            detail: `Auto Scaling group ${group.name} in ${group.region} launches from launch configuration ${lc.name}, which assigns public IP addresses.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.autoscaling_group_imdsv1_allowed',
    service: 'autoscaling',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Auto Scaling group launches instances that allow IMDSv1',
    description:
      "The group's launch configuration does not require IMDSv2 and leaves the metadata service on, so the instances " +
      "it launches answer IMDSv1: a server-side request forgery in any application on them can read the instance role's " +
      'temporary credentials with a plain GET.',
    remediation: `${REPLACE_CONFIGURATION} In the template, set Advanced details > Metadata version to V2 only (token required), after checking that the software on the AMI uses IMDSv2.`,
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/create-launch-config.html',
    controls: { 'aws-fsbp': ['AutoScaling.3'] },
    prowler: ['autoscaling_group_launch_configuration_requires_imdsv2'],
    evaluate: onPart('autoScaling', (value) =>
      failing(
        groupsWithConfiguration(value)
          .filter(({ lc }) => !imdsv2Enforced(lc.metadata))
          .map(({ group, lc }) => ({
            resource: group.arn,
            region: group.region,
            detail: `Auto Scaling group ${group.name} in ${group.region} launches from launch configuration ${lc.name}, which ${metadataDetail(lc.metadata)}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.autoscaling_group_single_az',
    service: 'autoscaling',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Auto Scaling group in a single Availability Zone',
    description:
      'The group launches instances in one Availability Zone only: an outage of that zone takes every instance of ' +
      'the group down, and the group cannot replace them elsewhere.',
    remediation:
      'Give the group subnets in at least two Availability Zones: Auto Scaling console > the group > Edit > Network > ' +
      'Availability Zones and subnets; or aws autoscaling update-auto-scaling-group --auto-scaling-group-name NAME ' +
      '--vpc-zone-identifier "subnet-a,subnet-b". The group then balances its instances across the zones.',
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-availability-zone-balanced.html',
    controls: { 'aws-fsbp': ['AutoScaling.2'] },
    prowler: ['autoscaling_group_multiple_az'],
    evaluate: onPart('autoScaling', ({ groups }) =>
      failing(
        groups
          .filter((g) => g.availabilityZones.length < 2)
          .map((g) => ({
            resource: g.arn,
            region: g.region,
            detail: `Auto Scaling group ${g.name} in ${g.region} launches in ${g.availabilityZones.length === 1 ? `${g.availabilityZones[0]} only` : 'no Availability Zone'}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.autoscaling_group_no_elb_health_check',
    service: 'autoscaling',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'Load-balanced Auto Scaling group without ELB health checks',
    description:
      'The group registers its instances with a load balancer but judges their health by EC2 status checks only: an ' +
      'instance whose application has stopped answering stays in service (the load balancer stops sending it traffic, ' +
      'but the group never replaces it), so capacity quietly shrinks.',
    remediation:
      'Turn on Elastic Load Balancing health checks: Auto Scaling console > the group > Edit > Health checks > Turn on ' +
      'Elastic Load Balancing health checks; or aws autoscaling update-auto-scaling-group --auto-scaling-group-name NAME ' +
      '--health-check-type ELB --health-check-grace-period 300.',
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-health-checks.html',
    controls: { 'aws-fsbp': ['AutoScaling.1'] },
    prowler: ['autoscaling_group_elb_health_check_enabled'],
    evaluate: onPart('autoScaling', ({ groups }) =>
      failing(
        groups
          .filter((g) => g.loadBalanced && !g.healthCheckType.includes('ELB'))
          .map((g) => ({
            resource: g.arn,
            region: g.region,
            detail: `Auto Scaling group ${g.name} in ${g.region} is behind a load balancer but uses ${g.healthCheckType} health checks only.`,
          })),
      ),
    ),
  },
];
