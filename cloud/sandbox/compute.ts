import type {
  AutoScaling,
  BatchJobDefinition,
  CodeBuildProject,
  Glue,
  InstanceUserData,
  LaunchTemplate,
} from '../../domain/scans/compute';
import type { Collected, Unread } from '../../domain/scans/inventory';

// The sandbox account's compute configuration: a launch template, an Auto Scaling group on a launch
// configuration, a CodeBuild project, a Glue job with its connection, and a Batch job definition, all in the home
// region and set up cleanly; each COMPUTE_ISSUES entry, drawn for some accounts, undoes one thing. Secrets appear
// only as what the detector would report (a kind and a line or a name): the sandbox holds no secret values either.

type Random = () => number;

export interface SandboxCompute {
  userData: InstanceUserData[];
  templates: LaunchTemplate[];
  autoScaling: AutoScaling;
  projects: CodeBuildProject[];
  glue: Glue;
  jobDefinitions: BatchJobDefinition[];
}

const REQUIRED = () => ({ httpTokens: 'required', httpEndpoint: 'enabled' });

function cleanCompute(accountId: string, region: string, instances: { id: string; region: string }[]): SandboxCompute {
  return {
    userData: instances.map(({ id, region: r }) => ({ id, region: r, secrets: [] })),
    templates: [
      {
        id: `lt-0${accountId.slice(-8)}web`,
        name: 'web-servers',
        region,
        versions: [
          { number: 6, isDefault: true, metadata: REQUIRED(), publicIp: false, secrets: [] },
          { number: 7, isDefault: false, metadata: REQUIRED(), publicIp: false, secrets: [] },
        ],
      },
    ],
    autoScaling: {
      launchConfigurations: [{ name: 'workers-2024-11', region, metadata: REQUIRED(), publicIp: false, secrets: [] }],
      groups: [
        {
          name: 'workers',
          arn: `arn:aws:autoscaling:${region}:${accountId}:autoScalingGroup:5f1e2d3c-0000-4000-8000-${accountId}:autoScalingGroupName/workers`,
          region,
          launchConfiguration: 'workers-2024-11',
          availabilityZones: [`${region}a`, `${region}b`],
          healthCheckType: 'ELB',
          loadBalanced: true,
        },
      ],
    },
    projects: [
      {
        name: 'deploy-api',
        arn: `arn:aws:codebuild:${region}:${accountId}:project/deploy-api`,
        region,
        visibility: 'PRIVATE',
        variableSecrets: [],
        sourceSecrets: [],
        unanchoredFilters: [],
      },
    ],
    glue: {
      jobs: [
        {
          name: 'orders-etl',
          region,
          argumentSecrets: [],
          securityConfiguration: 'kms-everything',
          sseS3Argument: false,
        },
      ],
      connections: [{ name: 'orders-db', region, type: 'JDBC', enforceSsl: true, propertySecrets: [] }],
      securityConfigurations: [
        {
          name: 'kms-everything',
          region,
          s3Encryption: 'SSE-KMS',
          cloudWatchEncryption: 'SSE-KMS',
          bookmarksEncryption: 'CSE-KMS',
        },
      ],
      catalogs: [{ region, passwordsEncrypted: true, policy: { read: true, publicStatements: [] } }],
    },
    jobDefinitions: [
      {
        name: 'nightly-report',
        revision: 4,
        arn: `arn:aws:batch:${region}:${accountId}:job-definition/nightly-report:4`,
        region,
        secrets: [],
      },
    ],
  };
}

/** One thing undone on some accounts: each is drawn on its own, so most accounts keep it and some do not. */
const COMPUTE_ISSUES: readonly ((c: SandboxCompute) => void)[] = [
  (c) => {
    const first = c.userData[0];
    if (first) first.secrets = [{ line: 12, kind: 'aws_access_key_id' }];
  },
  (c) => {
    c.templates[0]!.versions[1]!.secrets = [{ line: 3, kind: 'private_key' }];
  },
  (c) => {
    c.templates[0]!.versions[1]!.metadata = { httpTokens: 'optional', httpEndpoint: 'enabled' };
  },
  (c) => {
    c.templates[0]!.versions[0]!.publicIp = true;
  },
  (c) => {
    c.autoScaling.launchConfigurations[0]!.secrets = [{ line: 8, kind: 'named_secret' }];
  },
  (c) => {
    c.autoScaling.launchConfigurations[0]!.publicIp = true;
  },
  (c) => {
    c.autoScaling.launchConfigurations[0]!.metadata = { httpTokens: null, httpEndpoint: null };
  },
  (c) => {
    c.autoScaling.groups[0]!.availabilityZones = c.autoScaling.groups[0]!.availabilityZones.slice(0, 1);
  },
  (c) => {
    c.autoScaling.groups[0]!.healthCheckType = 'EC2';
  },
  (c) => {
    c.projects[0]!.variableSecrets = [{ name: 'GITHUB_TOKEN', kind: 'github_token' }];
  },
  (c) => {
    c.projects[0]!.sourceSecrets = [{ source: 'primary source', kind: 'password_in_url' }];
  },
  (c) => {
    c.projects[0]!.visibility = 'PUBLIC_READ';
  },
  (c) => {
    c.projects[0]!.unanchoredFilters = [{ type: 'HEAD_REF', pattern: 'refs/heads/main' }];
  },
  (c) => {
    c.glue.jobs[0]!.argumentSecrets = [{ name: '--db_password', kind: 'named_secret' }];
  },
  (c) => {
    c.glue.connections[0]!.propertySecrets = [{ name: 'PASSWORD', kind: 'named_secret' }];
  },
  (c) => {
    c.glue.catalogs[0]!.policy = {
      read: true,
      publicStatements: ['Statement ShareCatalog allows glue:GetDatabases, glue:GetTables'],
    };
  },
  (c) => {
    c.glue.catalogs[0]!.passwordsEncrypted = false;
  },
  (c) => {
    c.glue.connections[0]!.enforceSsl = false;
  },
  (c) => {
    c.glue.jobs[0]!.securityConfiguration = null;
  },
  (c) => {
    c.jobDefinitions[0]!.secrets = [{ name: 'API_KEY', kind: 'high_entropy_string' }];
  },
];

/** How often each issue is drawn on a neglected account: enough that a demo shows several, rare enough to stand out. */
const ISSUE_ODDS = 0.2;

const ok = <T>(value: T, unread: Unread[]): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };

/** The compute parts of a sandbox account: `random` is the account's own stream, `regional` names denied regions. */
export function computeParts({
  accountId,
  home,
  instances,
  random,
  neglect,
  regional,
}: {
  accountId: string;
  home: string;
  instances: { id: string; region: string }[];
  random: Random;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts). */
  neglect: number;
  regional: (service: string) => Unread[];
}) {
  const c = cleanCompute(accountId, home, instances);
  for (const issue of COMPUTE_ISSUES) if (random() < ISSUE_ODDS * neglect) issue(c);
  return {
    instanceUserData: ok({ instances: c.userData }, regional('EC2 DescribeInstanceAttribute')),
    launchTemplates: ok({ templates: c.templates }, regional('EC2 DescribeLaunchTemplates')),
    autoScaling: ok(c.autoScaling, regional('Auto Scaling DescribeLaunchConfigurations')),
    codebuildProjects: ok({ projects: c.projects }, regional('CodeBuild ListProjects')),
    glue: ok(c.glue, regional('Glue GetJobs')),
    batchJobDefinitions: ok({ jobDefinitions: c.jobDefinitions }, regional('Batch DescribeJobDefinitions')),
  };
}
