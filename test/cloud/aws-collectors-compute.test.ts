import { gzipSync } from 'node:zlib';
import {
  AutoScalingClient,
  CreateAutoScalingGroupCommand,
  CreateLaunchConfigurationCommand,
} from '@aws-sdk/client-auto-scaling';
import {
  CreateLaunchTemplateCommand,
  CreateLaunchTemplateVersionCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  queryError,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// What instances are launched with (instance user data, launch templates, Auto Scaling launch configurations and
// groups) against moto: each test seeds a customer account through the SDK, connects it with the real CLI script
// and collects through the front (test/helpers/aws.ts), which refuses calls as an SCP would and pages answers
// moto gives whole. The secrets seeded are fake ones of real shapes, assembled at run time: the inventory must name
// their kind and line, and never hold them.

const OTHER_REGION = 'eu-west-1';
const AMI = 'ami-12c6146b'; // one of the images moto ships in every region
const FAKE_KEY_ID = ['AKIA', 'Z7SENTINELTEST42'].join('');
const FAKE_PRIVATE_KEY = [
  '-----BEGIN RSA ',
  'PRIVATE KEY-----\nMIIEowIBAAKCAQEAsentinelfake\n-----END RSA ',
  'PRIVATE KEY-----',
].join('');
const FAKE_PASSWORD = ['Tr0ub4dor', '-Sentinel-', '77x'].join('');
const SEEDED = [FAKE_KEY_ID, FAKE_PRIVATE_KEY.split('\n')[1] as string, FAKE_PASSWORD];

const COMPUTE_CHECKS = [
  'exposure.instance_user_data_secrets',
  'exposure.launch_template_secrets',
  'exposure.launch_template_imdsv1_allowed',
  'exposure.launch_template_public_ip',
  'exposure.launch_configuration_secrets',
  'exposure.autoscaling_group_public_ip',
  'exposure.autoscaling_group_imdsv1_allowed',
  'exposure.autoscaling_group_single_az',
  'exposure.autoscaling_group_no_elb_health_check',
];

const base64 = (text: string) => Buffer.from(text).toString('base64');
const gzipped = (text: string) => gzipSync(Buffer.from(text)).toString('base64');

const SECRET_SCRIPT = ['#!/bin/bash', 'set -e', `export AWS_ACCESS_KEY_ID=${FAKE_KEY_ID}`, 'yum -y update'].join('\n');
const CLEAN_SCRIPT = [
  '#!/bin/bash',
  'aws secretsmanager get-secret-value --secret-id app/db',
  'systemctl start app',
].join('\n');

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    COMPUTE_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

/**
 * Pages a query-protocol (EC2) answer that moto gives whole: the first request gets the first item of `list` and a
 * NextToken, the request that sends it back gets the other items, as EC2 pages (its documented nextToken element).
 */
function pagedXml(list: string, request: { body: string }, answer: CannedAnswer): CannedAnswer | undefined {
  const open = `<${list}>`;
  const start = answer.body.indexOf(open);
  const end = answer.body.indexOf(`</${list}>`);
  if (start < 0 || end < 0) return undefined;
  const items = answer.body.slice(start + open.length, end).split(/(?=<item>\s*<launchTemplateId>)/);
  const [first, ...rest] = items.map((i) => i.trim()).filter(Boolean);
  const second = new URLSearchParams(request.body).get('NextToken') === 'page-2';
  const kept = second ? rest.join('') : (first ?? '');
  const token = second ? '' : '<nextToken>page-2</nextToken>';
  return {
    ...answer,
    body: `${answer.body.slice(0, start)}${open}${kept}</${list}>${token}${answer.body.slice(end + list.length + 3)}`,
  };
}

describe('AWS compute collection against moto: user data, launch templates, Auto Scaling', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  const ec2 = (customer: CustomerAccount, region = REGION) => client(new EC2Client(customerConfig(customer, region)));
  const autoscaling = (customer: CustomerAccount, region = REGION) =>
    client(new AutoScalingClient(customerConfig(customer, region)));

  async function instance(customer: CustomerAccount, region: string, userData: string): Promise<string> {
    const { Instances = [] } = await ec2(customer, region).send(
      new RunInstancesCommand({ ImageId: AMI, MinCount: 1, MaxCount: 1, InstanceType: 't3.micro', UserData: userData }),
    );
    return Instances[0]?.InstanceId as string;
  }

  async function template(
    customer: CustomerAccount,
    name: string,
    data: { userData?: string; tokens?: 'required' | 'optional'; publicIp?: boolean },
  ): Promise<string> {
    const { LaunchTemplate } = await ec2(customer).send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: name,
        LaunchTemplateData: {
          ImageId: AMI,
          UserData: data.userData,
          MetadataOptions: data.tokens ? { HttpTokens: data.tokens, HttpEndpoint: 'enabled' } : undefined,
          NetworkInterfaces: data.publicIp ? [{ DeviceIndex: 0, AssociatePublicIpAddress: true }] : undefined,
        },
      }),
    );
    return LaunchTemplate?.LaunchTemplateId as string;
  }

  async function configuration(
    customer: CustomerAccount,
    name: string,
    settings: { userData?: string; tokens?: 'required' | 'optional'; publicIp: boolean },
    region = REGION,
  ): Promise<void> {
    await autoscaling(customer, region).send(
      new CreateLaunchConfigurationCommand({
        LaunchConfigurationName: name,
        ImageId: AMI,
        InstanceType: 't3.micro',
        UserData: settings.userData,
        AssociatePublicIpAddress: settings.publicIp,
        MetadataOptions: settings.tokens ? { HttpTokens: settings.tokens, HttpEndpoint: 'enabled' } : undefined,
      }),
    );
  }

  async function group(
    customer: CustomerAccount,
    name: string,
    launchConfiguration: string,
    zones: string[],
    region = REGION,
  ): Promise<void> {
    await autoscaling(customer, region).send(
      new CreateAutoScalingGroupCommand({
        AutoScalingGroupName: name,
        LaunchConfigurationName: launchConfiguration,
        MinSize: 0,
        MaxSize: 2,
        DesiredCapacity: 0,
        AvailabilityZones: zones,
      }),
    );
  }

  it('finds secrets in user data (plain and gzipped), open launch templates and configurations, and keeps no secret', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const leaky = await instance(customer, REGION, base64(SECRET_SCRIPT));
    const zipped = await instance(
      customer,
      OTHER_REGION,
      gzipped(`#cloud-config\nwrite_files:\n  - content: |\n    ${FAKE_PRIVATE_KEY.split('\n').join('\n    ')}\n`),
    );
    await instance(customer, REGION, base64(CLEAN_SCRIPT));
    // A template whose first (default) version is clean and whose latest version leaks, allows IMDSv1 and is public.
    const web = await template(customer, uniqueName('web'), { userData: base64(CLEAN_SCRIPT), tokens: 'required' });
    await ec2(customer).send(
      new CreateLaunchTemplateVersionCommand({
        LaunchTemplateId: web,
        LaunchTemplateData: {
          ImageId: AMI,
          UserData: base64(SECRET_SCRIPT),
          MetadataOptions: { HttpTokens: 'optional', HttpEndpoint: 'enabled' },
          NetworkInterfaces: [{ DeviceIndex: 0, AssociatePublicIpAddress: true }],
        },
      }),
    );
    const tidy = await template(customer, uniqueName('tidy'), { userData: base64(CLEAN_SCRIPT), tokens: 'required' });
    await configuration(customer, 'workers-v1', {
      userData: base64(`#!/bin/sh\nDB_PASSWORD=${FAKE_PASSWORD}\n./start`),
      publicIp: true,
    });
    await configuration(customer, 'workers-v2', {
      userData: gzipped(CLEAN_SCRIPT),
      tokens: 'required',
      publicIp: false,
    });
    await group(customer, 'legacy', 'workers-v1', [`${REGION}a`]);
    await group(customer, 'current', 'workers-v2', [`${REGION}a`, `${REGION}b`]);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.instanceUserData).instances.filter((i) => i.secrets?.length)).toEqual(
      expect.arrayContaining([
        { id: leaky, region: REGION, secrets: [{ line: 3, kind: 'aws_access_key_id' }] },
        { id: zipped, region: OTHER_REGION, secrets: [{ line: 4, kind: 'private_key' }] },
      ]),
    );
    const templates = ok(inventory.launchTemplates).templates;
    expect(templates.find((t) => t.id === web)?.versions).toEqual([
      {
        number: 1,
        isDefault: true,
        metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
        publicIp: false,
        secrets: [],
      },
      {
        number: 2,
        isDefault: false,
        metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
        publicIp: true,
        secrets: [{ line: 3, kind: 'aws_access_key_id' }],
      },
    ]);
    const groups = ok(inventory.autoScaling).groups;
    const legacy = groups.find((g) => g.name === 'legacy')!.arn;
    expect(outcomes(inventory)).toEqual({
      'exposure.instance_user_data_secrets': [`${leaky}@${REGION}`, `${zipped}@${OTHER_REGION}`].sort(),
      'exposure.launch_template_secrets': [`${web}@${REGION}`],
      'exposure.launch_template_imdsv1_allowed': [`${web}@${REGION}`],
      'exposure.launch_template_public_ip': [`${web}@${REGION}`],
      'exposure.launch_configuration_secrets': [`workers-v1@${REGION}`],
      'exposure.autoscaling_group_public_ip': [`${legacy}@${REGION}`],
      'exposure.autoscaling_group_imdsv1_allowed': [`${legacy}@${REGION}`],
      'exposure.autoscaling_group_single_az': [`${legacy}@${REGION}`],
      'exposure.autoscaling_group_no_elb_health_check': 'pass',
    });
    expect(templates.map((t) => t.id)).toContain(tidy);
    // The inventory is stored: the secrets' kinds and places are in it, their values are not.
    const stored = JSON.stringify(inventory);
    for (const secret of SEEDED) expect(stored).not.toContain(secret);
    // One DescribeInstanceAttribute per live instance; one DescribeLaunchTemplateVersions per template.
    const calls = (operation: string) => suite.front.requests.filter((r) => r.operation === operation).length;
    expect([calls('DescribeInstanceAttribute'), calls('DescribeLaunchTemplateVersions')]).toEqual([3, 2]);
  });

  it('passes an account whose instances, templates and groups are set up cleanly', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await instance(customer, REGION, base64(CLEAN_SCRIPT));
    await template(customer, uniqueName('web'), { userData: base64(CLEAN_SCRIPT), tokens: 'required' });
    await configuration(customer, 'workers', { userData: base64(CLEAN_SCRIPT), tokens: 'required', publicIp: false });
    await group(customer, 'workers', 'workers', [`${REGION}a`, `${REGION}c`]);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(Object.values(outcomes(inventory))).toEqual(COMPUTE_CHECKS.map(() => 'pass'));
    expect([inventory.instanceUserData.unread, inventory.launchTemplates.unread, inventory.autoScaling.unread]).toEqual(
      [undefined, undefined, undefined],
    );
  });

  it('leaves unread an instance whose user data is refused and a region an SCP denies, never clean', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const hidden = await instance(customer, REGION, base64(SECRET_SCRIPT));
    const seen = await instance(customer, REGION, base64(SECRET_SCRIPT));
    await configuration(customer, 'denied-lc', { userData: base64(SECRET_SCRIPT), publicIp: true }, OTHER_REGION);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (request.operation === 'DescribeInstanceAttribute' && request.body.includes(hidden))
        return accessDenied(request);
      // Auto Scaling speaks the query protocol: its refusal is an XML error.
      if (request.service === 'autoscaling' && request.region === OTHER_REGION)
        return queryError({ service: 'autoscaling', status: 403, code: 'AccessDenied', message: 'explicit deny' });
      if (request.operation === 'DescribeLaunchTemplates' && request.region === OTHER_REGION)
        return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.instanceUserData.unread).toEqual([
      {
        kind: 'resource',
        scope: hidden,
        reason: expect.stringMatching(
          /^AWS denied Sentinel's role EC2 DescribeInstanceAttribute \(UnauthorizedOperation\)/,
        ),
      },
    ]);
    expect(
      checkById('exposure.instance_user_data_secrets')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toEqual({
      status: 'fail',
      resources: [expect.objectContaining({ resource: seen })],
      unread: [expect.objectContaining({ scope: hidden })],
    });
    expect(inventory.autoScaling.unread).toEqual([
      {
        kind: 'region',
        scope: OTHER_REGION,
        reason: expect.stringMatching(
          /^AWS denied Sentinel's role Auto Scaling DescribeLaunchConfigurations \(AccessDenied\)/,
        ),
      },
    ]);
    expect(inventory.launchTemplates.unread?.map((u) => u.scope)).toEqual([OTHER_REGION]);
    const configurations = checkById('exposure.launch_configuration_secrets')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    expect(configurations).toMatchObject({ status: 'pass', unread: [{ scope: OTHER_REGION }] });
  });

  it('reads every page: launch configurations and groups past a page, launch templates paged by the front', async () => {
    const { customer, target } = await suite.connectedCustomer();
    // moto pages launch configurations and groups by 50, as AWS does by its default MaxRecords.
    const names = Array.from({ length: 52 }, (_, i) => `lc-${String(i).padStart(2, '0')}`);
    for (const name of names) await configuration(customer, name, { tokens: 'required', publicIp: false });
    await configuration(customer, 'lc-leaky', { userData: base64(SECRET_SCRIPT), tokens: 'required', publicIp: false });
    for (const name of names) await group(customer, `asg-${name}`, name, [`${REGION}a`, `${REGION}b`]);
    const first = await template(customer, uniqueName('first'), { tokens: 'required' });
    const second = await template(customer, uniqueName('second'), { tokens: 'optional' });
    await createSentinelRole({ customer, externalId: target.externalId });
    // moto answers DescribeLaunchTemplates whole, without a nextToken: the front pages it one template at a time.
    suite.front.rewrite = (request, answer) =>
      request.operation === 'DescribeLaunchTemplates' && request.region === REGION && answer.status === 200
        ? pagedXml('launchTemplates', request, answer)
        : motoDifferences(request, answer);

    const inventory = await suite.provider.collectInventory(target);

    const value = ok(inventory.autoScaling);
    expect(value.launchConfigurations).toHaveLength(53);
    expect(value.groups).toHaveLength(52);
    expect(outcomes(inventory)['exposure.launch_configuration_secrets']).toEqual([`lc-leaky@${REGION}`]);
    expect(
      ok(inventory.launchTemplates)
        .templates.map((t) => t.id)
        .sort(),
    ).toEqual([first, second].sort());
    expect(outcomes(inventory)['exposure.launch_template_imdsv1_allowed']).toEqual([`${second}@${REGION}`]);
    const pages = (operation: string) =>
      suite.front.requests.filter((r) => r.operation === operation && r.region === REGION).length;
    expect([
      pages('DescribeLaunchConfigurations'),
      pages('DescribeAutoScalingGroups'),
      pages('DescribeLaunchTemplates'),
    ]).toEqual([2, 2, 2]);
  });
});
