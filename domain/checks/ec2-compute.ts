import { failing, onPart } from './helpers';
import type { Check } from './types';
import { imdsv2Enforced, metadataDetail, userDataResult } from './user-data';

// What instances are launched with: secrets written into user data (readable by anyone who can describe the
// instance, and from inside it by any process through the metadata service), and launch templates that hand
// instances a public address or the IMDSv1 metadata service whose credentials an SSRF can take.

const versionLabel = (v: { number: number; isDefault: boolean }) =>
  `version ${v.number}${v.isDefault ? ' (default)' : ' (latest)'}`;

export const EC2_COMPUTE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.instance_user_data_secrets',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in EC2 instance user data',
    description:
      "The instance's user data holds what looks like a credential (an access key, a private key, a token, a " +
      'password). User data is not secret: anyone allowed ec2:DescribeInstanceAttribute reads it, and every process on ' +
      'the instance can fetch it from the metadata service, so the credential is as exposed as the least-trusted of ' +
      'them. Sentinel names the kind of secret and its line, never the value.',
    remediation:
      'Rotate the credential first: it must be taken as known. Then keep it in Secrets Manager or SSM Parameter Store ' +
      'and have the script fetch it at boot with the instance role (aws secretsmanager get-secret-value). User data can ' +
      'only be changed while the instance is stopped: EC2 console > the instance > Actions > Instance settings > Edit user ' +
      'data; or aws ec2 stop-instances, then aws ec2 modify-instance-attribute --instance-id ID --attribute userData ' +
      '--value file://clean-user-data, then aws ec2 start-instances.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html',
    prowler: ['ec2_instance_secrets_user_data'],
    evaluate: onPart('instanceUserData', ({ instances }) =>
      userDataResult(
        instances.map((i) => ({
          resource: i.id,
          region: i.region,
          where: `User data of instance ${i.id} in ${i.region}`,
          secrets: i.secrets,
        })),
      ),
    ),
  },
  {
    id: 'exposure.launch_template_secrets',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in EC2 launch template user data',
    description:
      'The default or latest version of the launch template carries user data with what looks like a credential. ' +
      'Anyone allowed to describe launch template versions reads it, and every instance launched from the template ' +
      'serves it to its processes through the metadata service. Sentinel names the kind of secret and its line, never ' +
      'the value.',
    remediation:
      'Rotate the credential, then move it to Secrets Manager or SSM Parameter Store and fetch it at boot with the ' +
      'instance role. Create a new template version without it (EC2 console > Launch templates > the template > Actions ' +
      '> Modify template (Create new version) > Advanced details > User data; or aws ec2 create-launch-template-version ' +
      '--launch-template-id ID --source-version N --launch-template-data file://data.json), make it the default (aws ec2 ' +
      'modify-launch-template --launch-template-id ID --default-version M), and delete the versions that hold the ' +
      'secret (aws ec2 delete-launch-template-versions --launch-template-id ID --versions N).',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/create-launch-template.html',
    prowler: ['ec2_launch_template_no_secrets'],
    evaluate: onPart('launchTemplates', ({ templates }) =>
      userDataResult(
        templates.flatMap((t) =>
          t.versions.map((v) => ({
            resource: t.id,
            region: t.region,
            where: `User data of launch template ${t.name} (${t.id}) ${versionLabel(v)} in ${t.region}`,
            secrets: v.secrets,
          })),
        ),
      ),
    ),
  },
  {
    id: 'exposure.launch_template_imdsv1_allowed',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EC2 launch template allows IMDSv1',
    description:
      'The default or latest version of the launch template does not require IMDSv2 (HttpTokens required) and leaves ' +
      'the metadata service on, so its instances answer IMDSv1: a server-side request forgery in any application on ' +
      "them can read the instance role's temporary credentials with a plain GET.",
    remediation:
      'Create a template version that requires IMDSv2 and make it the default: EC2 console > Launch templates > the ' +
      'template > Actions > Modify template (Create new version) > Advanced details > Metadata version: V2 only (token ' +
      'required), then Actions > Set default version; or aws ec2 create-launch-template-version --launch-template-id ID ' +
      '--source-version N --launch-template-data \'{"MetadataOptions":{"HttpTokens":"required","HttpEndpoint":"enabled"}}\' ' +
      'and aws ec2 modify-launch-template --launch-template-id ID --default-version M. Check first that the software on ' +
      'the AMI uses IMDSv2 (current SDKs and the CLI do).',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-IMDS-new-instances.html',
    controls: { 'aws-fsbp': ['EC2.170'] },
    prowler: ['ec2_launch_template_imdsv2_required'],
    evaluate: onPart('launchTemplates', ({ templates }) =>
      failing(
        templates.flatMap((t) => {
          const open = t.versions.filter((v) => !imdsv2Enforced(v.metadata));
          if (open.length === 0) return [];
          return [
            {
              resource: t.id,
              region: t.region,
              detail:
                `Launch template ${t.name} (${t.id}) in ${t.region}: ` +
                open.map((v) => `${versionLabel(v)} ${metadataDetail(v.metadata)}`).join('; ') +
                '.',
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.launch_template_public_ip',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EC2 launch template assigns public IP addresses',
    description:
      'A network interface of the default or latest version of the launch template asks for a public IPv4 address ' +
      '(AssociatePublicIpAddress), so every instance launched from it is reachable from the internet, guarded only by ' +
      'its security groups, whatever subnet it lands in.',
    remediation:
      'Create a template version whose network interfaces do not ask for a public address and make it the default: ' +
      'EC2 console > Launch templates > the template > Actions > Modify template (Create new version) > Network settings ' +
      '> Advanced network configuration > Auto-assign public IP: Disable; or aws ec2 create-launch-template-version ' +
      '--launch-template-id ID --source-version N --launch-template-data \'{"NetworkInterfaces":[{"DeviceIndex":0,' +
      '"AssociatePublicIpAddress":false}]}\', then aws ec2 modify-launch-template --launch-template-id ID ' +
      '--default-version M. Put internet-facing services behind a load balancer instead.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-instance-addressing.html',
    controls: { 'aws-fsbp': ['EC2.25'] },
    prowler: ['ec2_launch_template_no_public_ip'],
    evaluate: onPart('launchTemplates', ({ templates }) =>
      failing(
        templates.flatMap((t) => {
          const open = t.versions.filter((v) => v.publicIp);
          if (open.length === 0) return [];
          return [
            {
              resource: t.id,
              region: t.region,
              detail: `Launch template ${t.name} (${t.id}) in ${t.region} assigns a public IP address in ${open.map(versionLabel).join(' and ')}.`,
            },
          ];
        }),
      ),
    ),
  },
];
