import { neglectFor, SANDBOX_PARTIAL_ACCOUNT_ID, sandboxInventory } from '../../cloud/sandbox/inventory';
import { NEGLECT } from '../../cloud/sandbox/upkeep';
import { analyzeAttackPaths } from '../../domain/attack-paths/analyze';
import { CATALOG } from '../../domain/checks/catalog';
import { evaluateInventory, isScoreComplete } from '../../domain/checks/evaluate';
import { RESOURCE_POLICY_CHECKS } from '../../domain/checks/resource-policies';
import { CODEARTIFACT_CHECKS } from '../../domain/checks/codeartifact';
import { ROUTE53_CHECKS } from '../../domain/checks/route53';
import type { Collected, Inventory } from '../../domain/scans/inventory';
import { DMS_CHECKS } from '../../domain/checks/dms';
import { DOCUMENTDB_CHECKS } from '../../domain/checks/documentdb';
import { EBS_STORAGE_CHECKS } from '../../domain/checks/ebs-storage';
import { ELASTICACHE_CHECKS } from '../../domain/checks/elasticache';
import { KAFKA_CHECKS } from '../../domain/checks/kafka';
import { KINESIS_CHECKS } from '../../domain/checks/kinesis';
import { NEPTUNE_CHECKS } from '../../domain/checks/neptune';
import { OPENSEARCH_CHECKS } from '../../domain/checks/opensearch';
import { RDS_CHECKS } from '../../domain/checks/rds';
import { REDSHIFT_CHECKS } from '../../domain/checks/redshift';

/** The checks of user data, launch settings, CodeBuild, Glue and Batch. */
const CATALOG_COMPUTE =
  /^exposure\.(instance_user_data|launch_template|launch_configuration|autoscaling_group|codebuild|glue|batch)_/;

const ACCOUNTS = ['123456789012', '210987654321', '111122223333', '444455556666'];
const AT = new Date('2025-06-10T09:00:00.000Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * `size` neglected accounts from `base` on (where the sandbox draws its breadth issues at full odds) and a quarter
 * as many better kept ones: an estate in which each check fails in some accounts and passes in others.
 */
function estate(base: number, size: number): string[] {
  const neglected: string[] = [];
  const kept: string[] = [];
  for (let i = 0; neglected.length < size || kept.length < size / 4; i++) {
    const id = String(base + i * 7919);
    if (neglectFor(id) === NEGLECT.neglected) {
      if (neglected.length < size) neglected.push(id);
    } else if (kept.length < size / 4) kept.push(id);
  }
  return [...neglected, ...kept];
}

function value<T>(part: Collected<T>): T {
  if (part.status !== 'ok') throw new Error(`not evaluated: ${part.reason}`);
  return part.value;
}

/** Every timestamp of the inventory, found by the naming convention of its fields. */
function timestamps(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(timestamps);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, child]) =>
    /(At|Time)$/.test(key) && typeof child === 'string' ? [child] : timestamps(child),
  );
}

/** Internet exposures a scan would report, named by resource so one can be followed across scans. */
function exposures(inventory: Inventory): { ssh: string[]; buckets: string[] } {
  return {
    ssh: value(inventory.securityGroups)
      .groups.filter((g) =>
        g.openIngress.some((r) => r.protocol === 'tcp' && r.fromPort === 22 && r.cidr === '0.0.0.0/0'),
      )
      .map((g) => g.id),
    buckets: value(inventory.s3Buckets)
      .buckets.filter((b) => b.publicViaAcl || b.publicViaPolicy)
      .map((b) => b.name),
  };
}

/** A resource exposed at some scan and no longer exposed at a later one. */
function appearsThenResolves(scans: string[][]): string | undefined {
  return scans.flatMap((exposed, i) =>
    exposed.filter((name) => scans.slice(i + 1).some((later) => !later.includes(name))),
  )[0];
}

describe('sandbox inventory', () => {
  describe('determinism', () => {
    it('gives the same inventory for the same account and time', () => {
      expect(sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: AT })).toEqual(
        sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: new Date(AT) }),
      );
    });

    it('makes accounts look different, beyond their ids', () => {
      const anonymised = ACCOUNTS.map((id) =>
        JSON.stringify(sandboxInventory({ awsAccountId: id, at: AT })).replaceAll(id, 'ACCOUNT'),
      );
      expect(new Set(anonymised).size).toBe(ACCOUNTS.length);
    });
  });

  describe('plausibility', () => {
    it.each(ACCOUNTS)('account %s looks like a small AWS account', (awsAccountId) => {
      const inventory = sandboxInventory({ awsAccountId, at: AT });
      const iam = value(inventory.iamPrincipals);
      const report = value(inventory.credentialReport);

      expect(inventory.collectedAt).toBe(AT.toISOString());
      expect(iam.users.length).toBeGreaterThanOrEqual(3);
      expect(iam.users.some((u) => u.accessKeys.length > 0)).toBe(true);
      expect(iam.users.every((u) => u.arn === `arn:aws:iam::${awsAccountId}:user/${u.name}`)).toBe(true);
      expect(report.users.map((r) => r.arn)).toEqual(iam.users.map((u) => u.arn));
      expect(iam.roles.length).toBeGreaterThan(0);
      expect(value(inventory.s3Buckets).buckets.length).toBeGreaterThanOrEqual(3);
      expect(new Set(value(inventory.securityGroups).groups.map((g) => g.region)).size).toBeGreaterThanOrEqual(2);
      expect(value(inventory.instances).instances.length).toBeGreaterThan(0);
      expect(value(inventory.cloudtrail).trails.length).toBeGreaterThan(0);
      expect(value(inventory.budgets).budgets.length).toBeGreaterThan(0);
      expect(value(inventory.alternateContacts)).toEqual(expect.objectContaining({ billing: expect.any(Boolean) }));
    });

    it.each(ACCOUNTS)('account %s uses only enabled regions, and has GuardDuty read in every one', (awsAccountId) => {
      const { regions, instances, guardduty } = sandboxInventory({ awsAccountId, at: AT });
      expect(regions.enabled).toEqual(
        expect.arrayContaining([...new Set(value(instances).instances.map((i) => i.region))]),
      );
      expect(
        value(guardduty)
          .regions.map((r) => r.region)
          .sort(),
      ).toEqual([...regions.enabled].sort());
    });

    it.each(ACCOUNTS)('account %s has daily costs for the 14 days before the scan', (awsAccountId) => {
      const { daily } = value(sandboxInventory({ awsAccountId, at: AT }).costs);
      const expected = Array.from({ length: 14 }, (_, i) =>
        new Date(Date.UTC(2025, 5, 10) - (14 - i) * DAY_MS).toISOString().slice(0, 10),
      );
      expect(daily.map((d) => d.date)).toEqual(expected);
      expect(daily.every((d) => d.amountUsd > 0)).toBe(true);
    });

    it("keeps a day's cost the same whichever scan reads it", () => {
      const earlier = value(sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: AT }).costs).daily;
      const later = value(
        sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: new Date(AT.getTime() + 3 * DAY_MS) }).costs,
      ).daily;
      expect(later.slice(0, 11)).toEqual(earlier.slice(3));
    });

    it.each(ACCOUNTS)('account %s has ISO timestamps, none after the scan', (awsAccountId) => {
      const all = timestamps(sandboxInventory({ awsAccountId, at: AT }));
      expect(all.length).toBeGreaterThan(5);
      for (const stamp of all) {
        expect(new Date(stamp).toISOString()).toBe(stamp);
        expect(Date.parse(stamp)).toBeLessThanOrEqual(AT.getTime());
      }
    });

    it('measures ages from the scan time, so they do not grow between scans', () => {
      const ages = (at: Date) =>
        value(sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at }).iamPrincipals)
          .users.filter((u) => u.name === 'ci-deploy')
          .flatMap((u) => u.accessKeys.map((k) => at.getTime() - Date.parse(k.createdAt)));
      expect(ages(new Date(AT.getTime() + 30 * DAY_MS))).toEqual(ages(AT));
    });

    it('has the logging controls met by some accounts and missed by others, in the regions it reads', () => {
      const ids = Array.from({ length: 20 }, (_, i) => String(100000000000 + i * 7919));
      const checks = [
        'detection.trail_log_validation_off',
        'detection.trail_not_kms_encrypted',
        'detection.trail_bucket_logging_off',
        'detection.s3_write_events_not_logged',
        'detection.s3_read_events_not_logged',
        'detection.config_off',
        'detection.security_hub_off',
        'iam.access_analyzer_off',
      ];
      const statuses = new Map(checks.map((id) => [id, new Set<string>()]));
      for (const awsAccountId of ids) {
        const inventory = sandboxInventory({ awsAccountId, at: AT });
        expect(value(inventory.configRecorders).regions.map((r) => r.region)).toEqual(inventory.regions.enabled);
        for (const o of evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes)
          statuses.get(o.checkId)?.add(o.status);
      }
      expect(Object.fromEntries([...statuses].map(([id, seen]) => [id, [...seen].sort()]))).toEqual(
        Object.fromEntries(checks.map((id) => [id, ['failed', 'passed']])),
      );
    });

    it('breaks each EC2 and VPC control in some accounts, and keeps it in most', () => {
      const ids = Array.from({ length: 20 }, (_, i) => String(100000000000 + i * 7919));
      const checks = [
        'exposure.ebs_default_encryption_off',
        'exposure.sg_cifs_open',
        'exposure.nacl_admin_ports_open',
        'exposure.default_sg_allows_traffic',
        'exposure.imdsv1_allowed',
        'iam.instance_without_role',
        'detection.vpc_flow_logs_off',
      ];
      const failing = Object.fromEntries(checks.map((id) => [id, 0]));
      for (const awsAccountId of ids) {
        const inventory = sandboxInventory({ awsAccountId, at: AT });
        for (const { checkId, status } of evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes) {
          if (checkId in failing && status === 'failed') failing[checkId] = (failing[checkId] ?? 0) + 1;
        }
      }
      for (const id of checks) expect([id, failing[id]! > 0 && failing[id]! < ids.length / 2]).toEqual([id, true]);
    });

    it('leaves AWS Health not evaluated for most accounts, saying why', () => {
      const ids = Array.from({ length: 20 }, (_, i) => String(100000000000 + i * 7919));
      const health = ids.map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }).health);
      const notEvaluated = health.filter((h) => h.status === 'not_evaluated');
      expect(notEvaluated.length).toBeGreaterThan(ids.length / 2);
      expect(notEvaluated[0]).toEqual({
        status: 'not_evaluated',
        reason: 'AWS Health needs a Business or Enterprise support plan',
      });
    });
  });

  describe('data stores', () => {
    const many = estate(300000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const failing = (id: string) =>
      many.filter((inventory) => {
        const result = evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find(
          (o) => o.checkId === id,
        );
        return result?.status === 'failed';
      }).length;

    it.each([
      'exposure.s3_bucket_allows_http',
      'exposure.rds_public',
      'exposure.rds_unencrypted',
      'exposure.rds_minor_upgrades_off',
      'exposure.efs_unencrypted',
      'detection.kms_rotation_off',
    ])('%s fails on some accounts, not on all', (id) => {
      expect(failing(id)).toBeGreaterThan(0);
      expect(failing(id)).toBeLessThan(many.length);
    });

    it.each(ACCOUNTS)(
      'account %s keeps its databases, file systems and keys in the regions it uses',
      (awsAccountId) => {
        const inventory = sandboxInventory({ awsAccountId, at: AT });
        const used = new Set(value(inventory.securityGroups).groups.map((g) => g.region));
        const regions = [
          ...value(inventory.rdsInstances).instances,
          ...value(inventory.efsFileSystems).fileSystems,
          ...value(inventory.kmsKeys).keys,
        ].map((r) => r.region);
        expect(value(inventory.rdsInstances).instances.length).toBeGreaterThan(0);
        expect(regions.filter((r) => !used.has(r))).toEqual([]);
        for (const key of value(inventory.kmsKeys).keys)
          expect(key.arn).toBe(`arn:aws:kms:${key.region}:${awsAccountId}:key/${key.id}`);
      },
    );
  });

  describe('network exposure', () => {
    const many = estate(500000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const failing = (id: string) =>
      many.filter(
        (inventory) =>
          evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find((o) => o.checkId === id)
            ?.status === 'failed',
      ).length;

    it.each([
      'exposure.sg_high_risk_ports_open',
      'exposure.sg_unauthorized_port_open',
      'exposure.sg_ftp_open',
      'exposure.sg_telnet_open',
      'exposure.instance_ftp_exposed',
      'exposure.instance_telnet_exposed',
      'exposure.instance_public_with_role',
      'exposure.nacl_all_traffic_open',
      'exposure.imds_default_allows_v1',
      'exposure.subnet_assigns_public_ip',
      'exposure.transit_gateway_auto_accepts',
      'exposure.vpc_endpoint_policy_open',
      'exposure.endpoint_service_open',
      'exposure.alb_http_not_redirected',
      'exposure.elb_outdated_tls_policy',
      'exposure.alb_invalid_headers_accepted',
      'exposure.alb_desync_unguarded',
      'exposure.elb_deletion_protection_off',
    ])('%s fails on some accounts, not on all', (id) => {
      expect(failing(id)).toBeGreaterThan(0);
      expect(failing(id)).toBeLessThan(many.length);
    });

    it('exposes a database server to the internet on some accounts', () => {
      const exposed = ['mysql', 'postgresql', 'mongodb', 'redis', 'elasticsearch_kibana'].map((service) =>
        failing(`exposure.instance_${service}_exposed`),
      );
      expect(exposed.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(exposed.reduce((a, b) => a + b, 0)).toBeLessThan(many.length);
    });
  });

  describe('edge: CloudFront, ACM and Lightsail', () => {
    const many = estate(400000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    it.each(
      CATALOG.filter((check) => ['cloudfront', 'acm', 'lightsail'].includes(check.service)).map((check) => check.id),
    )('%s fails on some accounts, not on all', (id) => {
      const failed = many.filter(
        (inventory) =>
          evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find((o) => o.checkId === id)
            ?.status === 'failed',
      ).length;
      expect(failed).toBeGreaterThan(0);
      expect(failed).toBeLessThan(many.length);
    });
  });

  describe('workloads', () => {
    const many = estate(300000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const failing = (id: string) =>
      many.filter((inventory) => {
        const result = evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find(
          (o) => o.checkId === id,
        );
        return result?.status === 'failed';
      }).length;

    it.each(
      CATALOG.filter((check) =>
        ['lambda', 'ecs', 'cloudformation', 'stepfunctions', 'ssm', 'apigateway'].includes(check.service),
      ).map((check) => check.id),
    )('%s fails on some accounts, not on all', (id) => {
      expect(failing(id)).toBeGreaterThan(0);
      expect(failing(id)).toBeLessThan(many.length);
    });

    it('names the kind and place of a secret, never a value', () => {
      const secrets = many.flatMap((inventory) =>
        value(inventory.lambdaFunctions).functions.flatMap((fn) => (fn.environment.read ? fn.environment.secrets : [])),
      );
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(Object.keys(secret).sort()).toEqual(['kind', 'name']);
    });
  });

  describe('RDS parameter groups, engine versions and backup plans, wide public ranges, volume snapshots, Bedrock keys and agents, notebook scripts and silent alarms', () => {
    const many = estate(400000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    it.each([
      'exposure.rds_transport_unencrypted',
      'exposure.rds_engine_version_deprecated',
      'exposure.rds_instance_no_backup_plan',
      'exposure.rds_cluster_no_backup_plan',
      'exposure.security_group_wide_public_range',
      'exposure.ebs_volume_without_snapshot',
      'iam.bedrock_api_key_admin_user',
      'iam.bedrock_agent_role_privileged',
      'iam.bedrock_agent_role_shared',
      'exposure.sagemaker_notebook_lifecycle_secrets',
      'detection.cloudwatch_alarm_actions_disabled',
      'detection.cloudwatch_alarm_without_alarm_actions',
    ])('%s fails on some accounts and passes on others', (id) => {
      const statuses = many.map(
        (inventory) =>
          evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find((o) => o.checkId === id)?.status,
      );
      expect(statuses).toContain('failed');
      expect(statuses).toContain('passed');
    });
  });

  describe('drift over a week of scans every 6 hours', () => {
    const week = (awsAccountId: string) =>
      Array.from({ length: 28 }, (_, i) =>
        exposures(sandboxInventory({ awsAccountId, at: new Date(AT.getTime() + i * 6 * HOUR_MS) })),
      );

    it.each(ACCOUNTS)('account %s opens SSH to the internet on a security group, then closes it', (awsAccountId) => {
      expect(appearsThenResolves(week(awsAccountId).map((scan) => scan.ssh))).toMatch(/^sg-/);
    });

    it.each(ACCOUNTS)('account %s makes a bucket public, then private again', (awsAccountId) => {
      expect(appearsThenResolves(week(awsAccountId).map((scan) => scan.buckets))).toContain(awsAccountId);
    });

    it('dates a drifting change from when it happened, not from each scan that sees it', () => {
      const scans = Array.from({ length: 28 }, (_, i) =>
        sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: new Date(AT.getTime() + i * 6 * HOUR_MS) }),
      );
      const newUsers = scans.flatMap((s) => value(s.iamPrincipals).users.filter((u) => u.name === 'support-temp'));
      expect(newUsers.length).toBeGreaterThan(1);
      expect(new Set(newUsers.map((u) => u.createdAt)).size).toBeLessThan(newUsers.length);
    });
  });

  describe('compute configuration', () => {
    const many = estate(500000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const computeChecks = evaluateInventory(many[0]!, { now: AT.toISOString() })
      .outcomes.map((o) => o.checkId)
      .filter((id) => CATALOG_COMPUTE.test(id));

    it('has the compute checks to show', () => {
      expect(computeChecks).toHaveLength(22);
    });

    it.each(computeChecks)('%s fails on some accounts, not on all', (id) => {
      const failed = many.filter(
        (inventory) =>
          evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find((o) => o.checkId === id)
            ?.status === 'failed',
      ).length;
      expect(failed).toBeGreaterThan(0);
      expect(failed).toBeLessThan(many.length);
    });

    it('shows what a secret is and where, never a value', () => {
      const secrets = many.flatMap((inventory) => [
        ...value(inventory.instanceUserData).instances.flatMap((i) => i.secrets ?? []),
        ...value(inventory.codebuildProjects).projects.flatMap((p) => p.variableSecrets),
      ]);
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(Object.keys(secret).sort()).toEqual(expect.arrayContaining(['kind']));
      expect(JSON.stringify(secrets)).not.toMatch(/value/);
    });
  });

  describe(`the partial-coverage demo (${SANDBOX_PARTIAL_ACCOUNT_ID})`, () => {
    const inventory = sandboxInventory({ awsAccountId: SANDBOX_PARTIAL_ACCOUNT_ID, at: AT });
    const regional = [
      'securityGroups',
      'instances',
      'publicSnapshots',
      'publicImages',
      'cloudtrail',
      'guardduty',
      'metricAlarms',
      'configRecorders',
      'securityHub',
      'accessAnalyzers',
      'ebsEncryptionByDefault',
      'networkAcls',
      'vpcFlowLogs',
      'rdsInstances',
      'efsFileSystems',
      'kmsKeys',
      'instanceMetadataDefaults',
      'publicIpSubnets',
      'transitGateways',
      'vpcEndpoints',
      'loadBalancers',
    ] as const;

    it('cannot read two regions of any regional part, nor one bucket, and reads the rest', () => {
      const denied = inventory.securityGroups.unread?.map((u) => u.scope);
      expect(denied).toHaveLength(2);
      for (const name of regional) {
        const part = inventory[name];
        expect(part.status).toBe('ok');
        expect(part.unread?.map((u) => `${u.kind}:${u.scope}`)).toEqual(denied!.map((region) => `region:${region}`));
        expect(JSON.stringify(value<unknown>(part))).not.toMatch(new RegExp(denied!.map((r) => `"${r}"`).join('|')));
      }
      expect(inventory.s3Buckets.unread).toEqual([
        {
          kind: 'resource',
          scope: expect.stringContaining('backups'),
          reason: expect.stringContaining("bucket's policy"),
        },
      ]);
      expect(value(inventory.s3Buckets).buckets.map((b) => b.name)).not.toContain(
        inventory.s3Buckets.unread![0]!.scope,
      );
    });

    it('scores, with the score marked incomplete', () => {
      const evaluation = evaluateInventory(inventory, { now: inventory.collectedAt });
      expect(evaluation.scored).toBe(true);
      expect(isScoreComplete(evaluation.outcomes)).toBe(false);
      const ssh = evaluation.outcomes.find((o) => o.checkId === 'exposure.sg_ssh_open');
      expect(ssh?.unread.map((u) => u.scope)).toEqual(inventory.securityGroups.unread?.map((u) => u.scope));
      expect(ssh?.reason).toContain('service control policy');
    });

    it('is the only sandbox account with anything unread', () => {
      const other = sandboxInventory({ awsAccountId: ACCOUNTS[0]!, at: AT });
      expect(Object.values(other).some((p) => typeof p === 'object' && p !== null && 'unread' in p)).toBe(false);
    });
  });

  describe('databases, analytics stores and snapshots', () => {
    it('breaks each of their checks in some accounts and keeps it in others', () => {
      const ids = estate(100000000000, 100);
      const checks = [...RDS_CHECKS, ...DOCUMENTDB_CHECKS, ...NEPTUNE_CHECKS, ...DMS_CHECKS, ...REDSHIFT_CHECKS]
        .concat(OPENSEARCH_CHECKS, KAFKA_CHECKS, ELASTICACHE_CHECKS, KINESIS_CHECKS, EBS_STORAGE_CHECKS)
        .map((c) => c.id);
      const seen = Object.fromEntries(checks.map((id) => [id, new Set<string>()]));
      for (const awsAccountId of ids) {
        const inventory = sandboxInventory({ awsAccountId, at: AT });
        for (const { checkId, status } of evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes)
          seen[checkId]?.add(status);
      }
      for (const id of checks) expect([id, [...seen[id]!].sort()]).toEqual([id, ['failed', 'passed']]);
    });
  });

  describe('resource policies and key and secret hygiene', () => {
    const many = estate(500000000000, 40).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const evaluations = many.map((inventory) => evaluateInventory(inventory, { now: inventory.collectedAt }));

    it.each(RESOURCE_POLICY_CHECKS.map((c) => c.id))('%s fails on some accounts and passes on others', (id) => {
      const statuses = evaluations.map((e) => e.outcomes.find((o) => o.checkId === id)?.status);
      expect(statuses.filter((s) => s === 'failed').length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 'passed').length).toBeGreaterThan(many.length / 2);
    });

    it.each(ACCOUNTS)('account %s names its own account and region in every resource ARN', (awsAccountId) => {
      const inventory = sandboxInventory({ awsAccountId, at: AT });
      const arns = [
        ...value(inventory.sqsQueues).queues,
        ...value(inventory.kmsKeyPolicies).keys,
        ...value(inventory.ecrRepositories).repositories,
        ...value(inventory.secrets).secrets,
      ].map((r) => [r.arn.split(':')[3], r.arn.split(':')[4]]);
      const used = new Set(value(inventory.securityGroups).groups.map((g) => g.region));
      for (const [region, account] of arns) expect([used.has(region!), account]).toEqual([true, awsAccountId]);
    });
  });

  describe('attack paths', () => {
    const toxic = (awsAccountId: string) =>
      analyzeAttackPaths(sandboxInventory({ awsAccountId, at: AT }))
        .paths.filter((p) => p.kind === 'toxic_combination')
        .map((p) => `${p.rule} ${p.source} → ${p.target}`);

    it('has a queue anyone may send to trigger the orders API, whose role reads the database password', () => {
      // 111122223333 opened its orders queue to everyone; Lambda polls it for the orders API.
      expect(toxic('111122223333')).toContain('public_queue_function_reads_secrets internet → secrets');
      const [path] = analyzeAttackPaths(sandboxInventory({ awsAccountId: '111122223333', at: AT })).paths.filter(
        (p) => p.rule === 'public_queue_function_reads_secrets',
      );
      expect(path?.nodes.map((n) => n.kind)).toEqual(['internet', 'queue', 'function', 'role', 'secret']);
      // A kept account's orders queue stays private: the same trigger and role, no path.
      expect(toxic('123456789012')).not.toContain('public_queue_function_reads_secrets internet → secrets');
    });
  });

  describe('governance', () => {
    const many = estate(500000000000, 60).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const statuses = (id: string) =>
      new Set(
        many.map(
          (inventory) =>
            evaluateInventory(inventory, { now: inventory.collectedAt }).outcomes.find((o) => o.checkId === id)?.status,
        ),
      );

    it.each([
      'exposure.s3_bucket_public_write_acl',
      'exposure.s3_bucket_public_list_acl',
      'exposure.s3_bucket_public_write_policy',
      'exposure.s3_bucket_cross_account_policy',
      'exposure.s3_access_point_public_access_block_off',
      'exposure.s3_multi_region_access_point_public_access_block_off',
      'detection.trail_bucket_public',
      'iam.group_admin_access',
      'iam.admin_without_mfa',
      'iam.policy_privilege_escalation',
      'iam.inline_policy_privilege_escalation',
      'iam.inline_policy_cloudtrail_full_access',
      'iam.policy_assumes_any_role',
      'iam.role_cross_account_readonly',
      'iam.role_confused_deputy',
      'iam.user_virtual_mfa',
      'detection.guardduty_s3_protection_off',
      'detection.guardduty_eks_audit_logs_off',
      'detection.guardduty_ec2_malware_protection_off',
      'detection.guardduty_lambda_protection_off',
      'detection.guardduty_rds_protection_off',
      'threat.cloudtrail_privilege_escalation',
      'threat.cloudtrail_enumeration',
      'threat.cloudtrail_llm_jacking',
    ])('fails %s in some accounts and passes it in others', (id) => {
      expect([...statuses(id)].sort()).toEqual(['failed', 'passed']);
    });

    it.each([
      'iam.organization_delegated_admin',
      'iam.organization_no_region_restriction',
      'iam.root_credentials_management_off',
      'detection.guardduty_no_delegated_admin',
      'detection.security_hub_no_delegated_admin',
    ])('judges %s in the management accounts only: failed or passed there, not applicable in members', (id) => {
      expect([...statuses(id)].sort()).toEqual(['failed', 'not_evaluated', 'passed']);
    });
  });

  describe('CodeArtifact packages, registered domains and DNS records', () => {
    const many = estate(600000000000, 30).map((awsAccountId) => sandboxInventory({ awsAccountId, at: AT }));
    const evaluations = many.map((inventory) => evaluateInventory(inventory, { now: inventory.collectedAt }));

    it.each([...CODEARTIFACT_CHECKS, ...ROUTE53_CHECKS].map((c) => c.id))(
      '%s fails on some accounts and passes on others',
      (id) => {
        const statuses = evaluations.map((e) => e.outcomes.find((o) => o.checkId === id)?.status);
        expect(statuses.filter((s) => s === 'failed').length).toBeGreaterThan(0);
        expect(statuses.filter((s) => s === 'passed').length).toBeGreaterThan(0);
      },
    );
  });
});
