import type { EvaluationContext } from '../../../domain/checks/types';
import type { Inventory, PartName } from '../../../domain/scans/inventory';
import { ACCOUNT, LAMBDA_ARN, part } from '../../helpers/inventory';

// The catalogue-behaviour cases of the attack-path checks (domain/checks/attack-paths.ts): each breaks the clean
// account just enough to complete one path. The clean account passes every one of them: its developers read, its
// roles hold what their service needs, and its web instance has no public address.

const ALICE = `arn:aws:iam::${ACCOUNT}:user/alice`;
const APP_ROLE = `arn:aws:iam::${ACCOUNT}:role/app-server`;
const SUPPORT_ROLE = `arn:aws:iam::${ACCOUNT}:role/incident-support`;
const ORDERS_ROLE = `arn:aws:iam::${ACCOUNT}:role/orders-api`;
const ADMIN_POLICY = 'arn:aws:iam::aws:policy/AdministratorAccess';
const REGION = 'us-east-1';

const document = (...Statement: Record<string, unknown>[]) => ({ Version: '2012-10-17', Statement });

/** AdministratorAccess attached to a user or role of the account. */
function makeAdministrator(inv: Inventory, arn: string) {
  const iam = part(inv.iamAuthorization);
  if (!iam.policies.some((p) => p.arn === ADMIN_POLICY))
    iam.policies.push({
      arn: ADMIN_POLICY,
      name: 'AdministratorAccess',
      document: document({ Effect: 'Allow', Action: '*', Resource: '*' }),
    });
  const principal = [...iam.users, ...iam.roles].find((p) => p.arn === arn);
  if (!principal) throw new Error(`no principal ${arn}`);
  principal.attached.push(ADMIN_POLICY);
}

/** The web instance given a public address, in a public subnet whose ACL and group let HTTPS in. */
function exposeWebInstance(inv: Inventory) {
  const web = part(inv.instances).instances.find((i) => i.id === 'i-0web');
  if (!web) throw new Error('no web instance');
  web.publicIp = '203.0.113.10';
  const topology = part(inv.networkTopology);
  topology.subnets.push({ id: 'subnet-web', vpcId: 'vpc-1', region: REGION });
  topology.routeTables.push({
    id: 'rtb-main',
    vpcId: 'vpc-1',
    region: REGION,
    main: true,
    subnetIds: [],
    internetRoutes: [{ destination: '0.0.0.0/0', gatewayId: 'igw-1' }],
  });
  const all = { protocol: '-1', fromPort: null, toPort: null, cidr: '0.0.0.0/0', action: 'allow' as const };
  topology.networkAcls.push({
    id: 'acl-default',
    vpcId: 'vpc-1',
    region: REGION,
    subnetIds: ['subnet-web'],
    entries: [
      { ...all, ruleNumber: 100, egress: false },
      { ...all, ruleNumber: 100, egress: true },
    ],
  });
  topology.securityGroups.push({
    id: 'sg-0web',
    vpcId: 'vpc-1',
    region: REGION,
    rules: [{ direction: 'inbound', protocol: 'tcp', fromPort: 443, toPort: 443, peer: '0.0.0.0/0' }],
  });
  topology.instances.push({ id: 'i-0web', region: REGION, subnetId: 'subnet-web', ipv6: false });
  return web;
}

export const ATTACK_PATH_CASES: {
  id: string;
  parts: PartName[];
  breaks: (inventory: Inventory, now: string) => void;
  fails: string[];
  context?: Omit<EvaluationContext, 'now'>;
}[] = [
  {
    id: 'attack_path.privilege_escalation',
    parts: ['iamAuthorization'],
    // Alice may write her own inline policies: she can grant herself anything.
    breaks: (inv) => {
      const alice = part(inv.iamAuthorization).users.find((u) => u.arn === ALICE);
      alice?.inline.push({
        name: 'self-service',
        document: document({ Effect: 'Allow', Action: 'iam:PutUserPolicy', Resource: ALICE }),
      });
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'attack_path.exposed_admin_workload',
    parts: ['iamAuthorization'],
    breaks: (inv) => {
      exposeWebInstance(inv);
      makeAdministrator(inv, APP_ROLE);
    },
    fails: [`i-0web@${REGION}`],
  },
  {
    id: 'attack_path.exposed_imdsv1_admin_workload',
    parts: ['iamAuthorization'],
    breaks: (inv) => {
      exposeWebInstance(inv).metadata = { httpTokens: 'optional', httpEndpoint: 'enabled' };
      makeAdministrator(inv, APP_ROLE);
    },
    fails: [`i-0web@${REGION}`],
  },
  {
    id: 'attack_path.user_key_without_mfa_admin',
    parts: ['iamAuthorization'],
    // Alice has an active key; without MFA and with administrator access, the key is the account.
    breaks: (inv) => {
      const row = part(inv.credentialReport).users.find((u) => u.arn === ALICE);
      if (row) row.mfaActive = false;
      makeAdministrator(inv, ALICE);
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'attack_path.external_trust_admin',
    parts: ['iamAuthorization'],
    breaks: (inv) => {
      const role = part(inv.iamAuthorization).roles.find((r) => r.arn === SUPPORT_ROLE);
      if (role)
        role.trust = document({
          Effect: 'Allow',
          Principal: { AWS: 'arn:aws:iam::444455556666:root' },
          Action: 'sts:AssumeRole',
        });
      makeAdministrator(inv, SUPPORT_ROLE);
    },
    fails: [`${SUPPORT_ROLE}@global`],
  },
  {
    id: 'attack_path.public_function_reads_secrets',
    parts: ['iamAuthorization'],
    breaks: (inv) => {
      const fn = part(inv.lambdaFunctions).functions.find((f) => f.arn === LAMBDA_ARN);
      if (fn)
        fn.urls = { read: true, urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'NONE' }] };
      const role = part(inv.iamAuthorization).roles.find((r) => r.arn === ORDERS_ROLE);
      role?.inline.push({
        name: 'secrets',
        document: document({ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: '*' }),
      });
    },
    fails: [`${LAMBDA_ARN}@${REGION}`],
  },
  {
    id: 'attack_path.public_queue_function_reads_secrets',
    parts: ['iamAuthorization'],
    // The orders queue, which Lambda polls for orders-api, opened to anyone; and the function's role given the secrets.
    breaks: (inv) => {
      const queue = part(inv.sqsQueues).queues.find((q) => q.name === 'orders');
      if (queue)
        queue.policy = {
          read: true,
          exposure: {
            public: [{ sid: 'Anyone', actions: ['sqs:SendMessage'], notActions: [], unknownConditions: [] }],
            external: [],
          },
          document: document({ Sid: 'Anyone', Effect: 'Allow', Principal: '*', Action: 'sqs:SendMessage' }),
        };
      const role = part(inv.iamAuthorization).roles.find((r) => r.arn === ORDERS_ROLE);
      role?.inline.push({
        name: 'secrets',
        document: document({ Effect: 'Allow', Action: 'ssm:GetParameter', Resource: '*' }),
      });
    },
    fails: [`${LAMBDA_ARN}@${REGION}`],
  },
  {
    id: 'attack_path.escalation_seen_acting',
    parts: ['iamAuthorization'],
    // The app role may attach any policy to itself, and an event detection saw one of its sessions act.
    breaks: (inv) => {
      const role = part(inv.iamAuthorization).roles.find((r) => r.arn === APP_ROLE);
      role?.inline.push({
        name: 'self-attach',
        document: document({ Effect: 'Allow', Action: 'iam:AttachRolePolicy', Resource: APP_ROLE }),
      });
    },
    context: {
      recentActors: [
        {
          principal: `arn:aws:sts::${ACCOUNT}:assumed-role/app-server/i-0web`,
          detection: 'event.iam_policy_attached',
          at: '2026-11-20T11:00:00.000Z',
        },
      ],
    },
    fails: [`${APP_ROLE}@global`],
  },
];
