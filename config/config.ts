import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_ORGANIZATION_SYNC_MINUTES } from '../domain/accounts/organizations';
import { DEFAULT_EXPORT_RETENTION_SECONDS } from '../workflows/contracts';

// Configuration is parsed once at start-up, frozen and passed down. It is never logged whole: it holds
// secrets. Every variable is documented in docs/operations.md ("Configuration").

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const optional = z.string().min(1).optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Express `trust proxy`: true/false, a hop count, or a list of addresses / subnets (names like `loopback`).
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((v): boolean | number | string =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),

  // Prometheus metrics: each process serves GET /metrics on a port of its own, on loopback unless told otherwise
  // (docs/operations.md, "Metrics"). 0 picks a free port.
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),

  DATABASE_URL: z.string().min(1),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  // The API's bound on one statement (docs/operations.md, "Statement timeout"); 0: none. The worker sets none.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),

  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('sentinel'),
  TEMPORAL_API_KEY: optional,
  TEMPORAL_TLS: bool.default(false),
  TEMPORAL_TLS_CERT_PATH: optional,
  TEMPORAL_TLS_KEY_PATH: optional,
  TEMPORAL_TLS_CA_PATH: optional,
  TEMPORAL_TLS_SERVER_NAME: optional,
  TEMPORAL_UI_URL: z.url().default('http://localhost:8233'),
  TEMPORAL_FAIRNESS: bool.default(true),
  TEMPORAL_WORKFLOW_BUNDLE: optional,
  TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(2).default(10_000),
  TEMPORAL_WORKER_SLOTS: z.enum(['fixed', 'resource-based']).default('fixed'),

  CLOUD_PROVIDER: z.enum(['aws', 'sandbox']).optional(),
  SENTINEL_AWS_ACCOUNT_ID: z
    .string()
    .regex(/^[0-9]{12}$/, 'must be a 12-digit AWS account id')
    .optional(),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  AWS_ENDPOINT_URL: z.url().optional(),
  // Only looked at to pick the provider: the AWS SDK reads credentials itself.
  AWS_ACCESS_KEY_ID: optional,
  AWS_PROFILE: optional,
  AWS_WEB_IDENTITY_TOKEN_FILE: optional,
  AWS_CONTAINER_CREDENTIALS_FULL_URI: optional,
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: optional,
  // Attempts per call to a customer's account (the SDK's adaptive retry mode): throttling and 5xx are absorbed.
  AWS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  // Requests one scan holds open at once, every service and region together (cloud/aws/collectors/session.ts).
  AWS_MAX_CONCURRENT_CALLS: z.coerce.number().int().min(1).max(512).default(32),
  // AWS bills each Cost Explorer request to the customer: a scan reuses the last answer until it is this old.
  COST_EXPLORER_MIN_INTERVAL_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 7)
    .default(12),
  // Minutes between two syncs of a connected AWS Organization's member accounts (docs/operations.md, "Configuration").
  ORGANIZATION_SYNC_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(DEFAULT_ORGANIZATION_SYNC_MINUTES),
  // The sandbox invents its findings: a production deployment must say it wants it.
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),
  // One-click onboarding: the bucket the CloudFormation template is published to, which customers' consoles read
  // (docs/operations.md, "CloudFormation templates"). No dots: the template's https URL names the bucket in S3's
  // host name, whose certificate covers one label. Without it, connect answers no quick-create link.
  CLOUDFORMATION_TEMPLATE_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name without dots')
    .optional(),
  CLOUDFORMATION_TEMPLATE_REGION: optional,

  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters'),
  // Sign-ups allowed per client address per hour (an office behind one NAT may need more).
  SIGNUPS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  JWT_ISSUER: z.string().min(1).default('sentinel'),
  // Keys for data at rest (Slack bot tokens) and for signed download links. Each defaults to a key derived
  // from JWT_SECRET (HKDF, one label per use), so the embedded default needs nothing; set them to rotate apart.
  DATA_ENCRYPTION_KEY: z.string().min(32, 'DATA_ENCRYPTION_KEY must be at least 32 characters').optional(),
  URL_SIGNING_SECRET: z.string().min(32, 'URL_SIGNING_SECRET must be at least 32 characters').optional(),

  // E-mail: an SMTP URL (smtp:// or smtps://, credentials in the URL). Without it, e-mails go to the outbox table.
  SMTP_URL: z.url().optional(),
  EMAIL_FROM: z.string().min(3).default('Sentinel <alerts@sentinel.localhost>'),

  // Slack: the app's OAuth credentials (for the install flow) and the API base (tests point it at loopback).
  SLACK_CLIENT_ID: optional,
  SLACK_CLIENT_SECRET: optional,
  SLACK_API_BASE_URL: z.url().default('https://slack.com/api'),
  SLACK_AUTHORIZE_URL: z.url().default('https://slack.com/oauth/v2/authorize'),
  // Incoming-webhook URLs must start with this, so a rule cannot make the worker call arbitrary addresses.
  SLACK_WEBHOOK_URL_PREFIX: z.url().default('https://hooks.slack.com/'),
  // PagerDuty Events API v2 endpoint.
  PAGERDUTY_EVENTS_URL: z.url().default('https://events.pagerduty.com/v2/enqueue'),

  // Stripe: billing endpoints answer 503 without STRIPE_SECRET_KEY. STRIPE_API_BASE_URL points at stripe-mock in tests.
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE_URL: z.url().optional(),
  STRIPE_PRICE_SOLO: optional,
  STRIPE_PRICE_TEAM: optional,
  STRIPE_PRICE_AGENCY: optional,
  STRIPE_PRICE_ENTERPRISE: optional,

  // Panic exports: an S3 bucket (presigned GET links) or, without one, a local directory served by the API.
  EXPORT_S3_BUCKET: optional,
  EXPORT_LOCAL_DIR: z.string().min(1).default('.data/exports'),
  // How long a stored package is kept: past its 15-minute link plus a grace period, then deleted.
  EXPORT_RETENTION_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_EXPORT_RETENTION_SECONDS),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  http: { host: string; port: number; publicBaseUrl: string; trustProxy: boolean | number | string };
  logLevel: string;
  /** Where each process serves its Prometheus metrics: the API on `apiPort`, the worker on `workerPort`. */
  metrics: { host: string; apiPort: number; workerPort: number };
  database: { url: string; poolMax: number; apiStatementTimeoutMs: number };
  temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    apiKey?: string;
    tls: boolean;
    tlsCertPath?: string;
    tlsKeyPath?: string;
    tlsCaPath?: string;
    tlsServerName?: string;
    uiUrl: string;
    /** Scans carry their tenant's fairness key (docs/operations.md, "Fairness"). */
    fairness: boolean;
    worker: {
      /** A bundle built by `npm run build:workflows`; without it the worker bundles the workflows at start-up. */
      workflowBundlePath?: string;
      /** Workflows kept in the worker's sticky cache: one per account the worker holds, so no task replays a history. */
      maxCachedWorkflows: number;
      /** `resource-based`: activity slots follow the host's CPU and memory (a dedicated host); `fixed`: the SDK's counts. */
      slots: 'fixed' | 'resource-based';
    };
  };
  auth: {
    jwtSecret: string;
    issuer: string;
    idTokenTtlSeconds: number;
    refreshTokenTtlDays: number;
    signupsPerClientPerHour: number;
  };
  /** 32-byte keys, derived from JWT_SECRET unless configured. */
  secrets: { dataEncryptionKey: Buffer; urlSigningKey: Buffer };
  email: { smtpUrl?: string; from: string };
  slack: {
    clientId?: string;
    clientSecret?: string;
    apiBaseUrl: string;
    authorizeUrl: string;
    webhookUrlPrefix: string;
  };
  pagerduty: { eventsUrl: string };
  stripe: {
    secretKey?: string;
    webhookSecret?: string;
    /** Overrides the Stripe API address (tests point it at stripe-mock). */
    apiBaseUrl?: string;
    /** Stripe price id per plan id; a plan without one cannot be bought through checkout. */
    prices: Partial<Record<'solo' | 'team' | 'agency' | 'enterprise', string>>;
  };
  exports: { s3Bucket?: string; localDir: string; retentionSeconds: number };
  cloud: {
    /** `aws` when AWS credentials are configured, else the documented demo `sandbox`; CLOUD_PROVIDER overrides. */
    provider: 'aws' | 'sandbox';
    /** From SENTINEL_AWS_ACCOUNT_ID, else (aws) STS GetCallerIdentity at start-up. */
    sentinelAccountId?: string;
    region: string;
    /** Overrides every AWS endpoint (tests point it at the moto server). */
    endpointUrl?: string;
    /** Attempts per call to a customer's account, in the SDK's adaptive retry mode. */
    maxAttempts: number;
    maxConcurrentCalls: number;
    /** A scan reuses the account's last Cost Explorer answer until it is this old. */
    costExplorerMinIntervalHours: number;
    /** Where the CloudFormation template is published for quick-create links (the bucket's region: AWS_REGION unless set). */
    templateBucket?: { name: string; region: string };
  };
  /** Connected AWS Organizations: minutes between two syncs of their member accounts. */
  organizations: { syncMinutes: number };
}

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    // Name the variables and the rule, never the values (they may be secrets).
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.TEMPORAL_TLS_CERT_PATH && !e.TEMPORAL_TLS_KEY_PATH) {
    throw new ConfigError('invalid configuration: TEMPORAL_TLS_KEY_PATH is required with TEMPORAL_TLS_CERT_PATH');
  }
  if (e.NODE_ENV === 'production' && e.CLOUD_PROVIDER === 'sandbox' && !e.ALLOW_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'invalid configuration: CLOUD_PROVIDER=sandbox shows simulated findings, not real accounts; ' +
        'with NODE_ENV=production it also needs ALLOW_SANDBOX_IN_PRODUCTION=true',
    );
  }
  return deepFreeze({
    env: e.NODE_ENV,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL.replace(/\/$/, ''),
      trustProxy: e.TRUST_PROXY,
    },
    logLevel: e.LOG_LEVEL,
    metrics: { host: e.METRICS_HOST, apiPort: e.METRICS_PORT, workerPort: e.WORKER_METRICS_PORT },
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      apiStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      apiKey: e.TEMPORAL_API_KEY,
      tls: e.TEMPORAL_TLS || Boolean(e.TEMPORAL_API_KEY) || Boolean(e.TEMPORAL_TLS_CERT_PATH),
      tlsCertPath: e.TEMPORAL_TLS_CERT_PATH,
      tlsKeyPath: e.TEMPORAL_TLS_KEY_PATH,
      tlsCaPath: e.TEMPORAL_TLS_CA_PATH,
      tlsServerName: e.TEMPORAL_TLS_SERVER_NAME,
      uiUrl: e.TEMPORAL_UI_URL.replace(/\/$/, ''),
      fairness: e.TEMPORAL_FAIRNESS,
      worker: {
        workflowBundlePath: e.TEMPORAL_WORKFLOW_BUNDLE,
        maxCachedWorkflows: e.TEMPORAL_MAX_CACHED_WORKFLOWS,
        slots: e.TEMPORAL_WORKER_SLOTS,
      },
    },
    auth: {
      jwtSecret: e.JWT_SECRET,
      issuer: e.JWT_ISSUER,
      idTokenTtlSeconds: 3600,
      refreshTokenTtlDays: 30,
      signupsPerClientPerHour: e.SIGNUPS_PER_CLIENT_PER_HOUR,
    },
    secrets: {
      dataEncryptionKey: deriveKey(e.DATA_ENCRYPTION_KEY ?? e.JWT_SECRET, 'sentinel data encryption'),
      urlSigningKey: deriveKey(e.URL_SIGNING_SECRET ?? e.JWT_SECRET, 'sentinel url signing'),
    },
    email: { smtpUrl: e.SMTP_URL, from: e.EMAIL_FROM },
    slack: {
      clientId: e.SLACK_CLIENT_ID,
      clientSecret: e.SLACK_CLIENT_SECRET,
      apiBaseUrl: e.SLACK_API_BASE_URL.replace(/\/$/, ''),
      authorizeUrl: e.SLACK_AUTHORIZE_URL,
      webhookUrlPrefix: e.SLACK_WEBHOOK_URL_PREFIX,
    },
    pagerduty: { eventsUrl: e.PAGERDUTY_EVENTS_URL },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBaseUrl: e.STRIPE_API_BASE_URL,
      prices: {
        solo: e.STRIPE_PRICE_SOLO,
        team: e.STRIPE_PRICE_TEAM,
        agency: e.STRIPE_PRICE_AGENCY,
        enterprise: e.STRIPE_PRICE_ENTERPRISE,
      },
    },
    exports: {
      s3Bucket: e.EXPORT_S3_BUCKET,
      localDir: e.EXPORT_LOCAL_DIR,
      retentionSeconds: e.EXPORT_RETENTION_SECONDS,
    },
    cloud: {
      // Production never falls back to the demo provider: credentials may come from an instance role the
      // environment does not show.
      provider: e.CLOUD_PROVIDER ?? (e.NODE_ENV === 'production' || hasAwsCredentials(e) ? 'aws' : 'sandbox'),
      sentinelAccountId: e.SENTINEL_AWS_ACCOUNT_ID,
      region: e.AWS_REGION,
      endpointUrl: e.AWS_ENDPOINT_URL,
      maxAttempts: e.AWS_MAX_ATTEMPTS,
      maxConcurrentCalls: e.AWS_MAX_CONCURRENT_CALLS,
      costExplorerMinIntervalHours: e.COST_EXPLORER_MIN_INTERVAL_HOURS,
      templateBucket: e.CLOUDFORMATION_TEMPLATE_BUCKET
        ? { name: e.CLOUDFORMATION_TEMPLATE_BUCKET, region: e.CLOUDFORMATION_TEMPLATE_REGION ?? e.AWS_REGION }
        : undefined,
    },
    organizations: { syncMinutes: e.ORGANIZATION_SYNC_MINUTES },
  });
}

/** A 32-byte key for one purpose (`label`) from a secret: HKDF-SHA256, so keys for different uses never coincide. */
function deriveKey(secret: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'sentinel', label, 32));
}

function hasAwsCredentials(e: z.output<typeof EnvSchema>): boolean {
  return Boolean(
    e.AWS_ACCESS_KEY_ID ||
      e.AWS_PROFILE ||
      e.AWS_WEB_IDENTITY_TOKEN_FILE ||
      e.AWS_CONTAINER_CREDENTIALS_FULL_URI ||
      e.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI,
  );
}

function deepFreeze<T>(value: T): Readonly<T> {
  // Typed arrays (the keys) cannot be frozen; the object holding them is.
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
