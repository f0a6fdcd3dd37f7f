import { isHighEnd } from '../checks/threat';
import { FORWARDER_ROLE_NAME } from '../onboarding/forwarder-templates';
import { policyExposure } from '../policies/resource-policy';
import { documentGrantsAdministrator } from '../checks/admin-policies';
import {
  type Detail,
  failed,
  identityType,
  objects,
  params,
  parsePolicy,
  statements,
  str,
  strings,
} from './cloudtrail-record';
import { CLOUDTRAIL_API_CALL } from './forwarding-rules';
import { asObject, pathOf } from './normalize';
import { PLAYBOOK_CATALOG, type PlaybookDescription } from './playbook-catalog';
import type { AccountEvent, DetectionContext, EventDetection, EventFinding } from './types';

// How the attacker's playbook detections (domain/events/playbook-catalog.ts) read their calls. Each rule gets the
// call already matched to the detection's calls (source, event name) and made by someone other than Sentinel's own
// roles (domain/events/detections.ts `detectEvent`), and says what it found: nothing for the benign variants (a policy version not made the default, a key
// deactivated rather than reactivated, a bucket shared with its own account).

/** One CloudTrail call, as a rule reads it. */
interface Call {
  event: AccountEvent;
  name: string;
  detail: Detail;
  request: Detail;
  response: Detail;
}

type Rule = (call: Call, context: DetectionContext) => EventFinding[];

/**
 * Which outcomes of a call a detection reads. Most read what succeeded (a failed call changed nothing); a probe is
 * news whether it worked or not (a password asked for an instance the caller does not know), and a refused GPU launch
 * is news because it was refused.
 */
type Outcome = 'success' | 'any' | 'failure';
const OUTCOMES: Readonly<Record<string, Outcome>> = {
  'event.ec2_password_data_retrieved': 'any',
  'event.instance_user_data_read': 'any',
  'event.gpu_instance_launch_attempted': 'failure',
};

/** Whether a detection reads failed calls too (or only them): the generic "a failed call changed nothing" does not apply. */
export const readsFailedCalls = (id: string): boolean => (OUTCOMES[id] ?? 'success') !== 'success';

/** A user's or role's ARN from its name, in the event's account. */
const iamArn = (event: AccountEvent, kind: 'user' | 'role', name: string) =>
  `arn:aws:iam::${event.account}:${kind}/${name}`;

/** The caller's own IAM user name, when an IAM user called. */
const callerUser = (detail: Detail) =>
  identityType(detail) === 'IAMUser' ? str(detail, 'userIdentity', 'userName') : null;

/** At most five names, and how many more. */
function listed(names: readonly string[]): string {
  const more = names.length > 5 ? ` and ${names.length - 5} more` : '';
  return `${names.slice(0, 5).join(', ')}${more}`;
}

/** The account of an ARN (`arn:aws:lambda:us-east-1:111122223333:layer:x:1`), or undefined. */
const accountOfArn = (arn: string) => /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(arn)?.[1];

/** Every string value under a key named `key` (any case), anywhere in the request: instance types in any shape. */
function valuesOf(value: unknown, key: string, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) valuesOf(item, key, into);
  else {
    const object = asObject(value);
    if (object)
      for (const [k, v] of Object.entries(object)) {
        if (k.toLowerCase() === key.toLowerCase() && typeof v === 'string') into.push(v);
        else valuesOf(v, key, into);
      }
  }
  return into;
}

/** The accounts other than the event's (or everyone, `all`) in a list of the items EC2 logs for permissions. */
function sharedWith(event: AccountEvent, add: unknown): string[] {
  return objects(pathOf(add, 'items') ?? add).flatMap((item) => {
    const user = str(item, 'userId');
    if (user && user !== event.account) return [user];
    if (str(item, 'group') === 'all') return ['everyone'];
    const org = str(item, 'organizationArn') ?? str(item, 'organizationalUnitArn');
    return org ? [org] : [];
  });
}

/** Who a policy opens a resource to, beyond the event's account: accounts, and `everyone` for a public statement. */
function outsiders(event: AccountEvent, document: unknown, withPublic = true): string[] {
  const exposure = policyExposure(parsePolicy(document), event.account);
  if (!exposure) return [];
  const accounts = [...new Set(exposure.external.map((e) => e.account))];
  return withPublic && exposure.public.length > 0 ? ['everyone', ...accounts] : accounts;
}

/** Anywhere on the internet, as a CIDR block. */
const INTERNET: ReadonlySet<string> = new Set(['0.0.0.0/0', '::/0']);
/** AWS's default maximum session duration of a role (one hour). */
const DEFAULT_ROLE_SESSION_SECONDS = 3600;
/** The AWS managed service control policy that allows everything. */
const FULL_AWS_ACCESS = 'p-FullAWSAccess';

/** A field of an object in any case: CloudTrail writes `aWSAccountId` for the API's `AWSAccountId`. */
function fieldOf(object: Detail | null, key: string): unknown {
  const match = Object.keys(object ?? {}).find((k) => k.toLowerCase() === key.toLowerCase());
  return match === undefined ? undefined : object?.[match];
}

/** An IP protocol as EC2 logs it: a name, a number, or `-1` for every protocol. */
const protocolOf = (value: unknown) => (typeof value === 'number' ? String(value) : (str(value) ?? ''));

/**
 * What a policy document allows on every resource that leads to the whole account: administrator access (every
 * action, every IAM action, a NotAction leaving IAM in), or assuming any role.
 */
function escalationGrants(policy: Detail | null): string[] {
  const found = new Set<string>();
  if (documentGrantsAdministrator(policy)) found.add('administrator access');
  for (const s of statements(policy)) {
    if (s.Effect !== 'Allow' || !strings(s.Resource).includes('*')) continue;
    const actions = strings(s.Action).map((a) => a.toLowerCase());
    if (actions.includes('sts:assumerole') || actions.includes('sts:*')) found.add('sts:AssumeRole');
  }
  return [...found];
}

const one = (resource: string | null, detail: string, region?: string): EventFinding[] =>
  resource ? [{ resource, detail, ...(region ? { region } : {}) }] : [];

const RULES: Readonly<Record<string, Rule>> = {
  'event.iam_policy_version_set_default': ({ name, request }) => {
    if (name === 'CreatePolicyVersion' && request.setAsDefault !== true) return [];
    const policy = str(request, 'policyArn');
    const version = str(request, 'versionId');
    const admin =
      name === 'CreatePolicyVersion' && documentGrantsAdministrator(parsePolicy(request.policyDocument))
        ? ': the new version grants administrator access'
        : '';
    return one(
      policy,
      `Policy ${policy} has a new default version${version ? ` (${version})` : ''}, set by ${name}${admin}.`,
    );
  },
  'event.iam_user_added_to_group': ({ event, request }) => {
    const user = str(request, 'userName');
    const group = str(request, 'groupName');
    return one(user && iamArn(event, 'user', user), `IAM user ${user} was added to group ${group}.`);
  },
  'event.iam_role_trusts_outside_account': ({ event, name, request }, context) => {
    const role = str(request, 'roleName');
    // Sentinel's own roles trust Sentinel's account: their changes are event.sentinel_role_changed's.
    if (!role || role === context.roleName || role === FORWARDER_ROLE_NAME) return [];
    const document = name === 'CreateRole' ? request.assumeRolePolicyDocument : request.policyDocument;
    const trusted = outsiders(event, document);
    return trusted.length === 0
      ? []
      : one(iamArn(event, 'role', role), `Role ${role} may now be assumed by ${listed(trusted)} (${name}).`);
  },
  'event.iam_permissions_boundary_removed': ({ event, name, request }, context) => {
    const user = str(request, 'userName');
    const role = str(request, 'roleName');
    // Sentinel's templates give its roles no boundary: removing one gives back only what Sentinel asked for.
    if (role && (role === context.roleName || role === FORWARDER_ROLE_NAME)) return [];
    const arn = user ? iamArn(event, 'user', user) : role ? iamArn(event, 'role', role) : null;
    return one(arn, `The permissions boundary of ${user ? `user ${user}` : `role ${role}`} was removed (${name}).`);
  },
  'event.rolesanywhere_trust_anchor_created': ({ name, request, response }) => {
    const arn =
      str(response, 'trustAnchor', 'trustAnchorArn') ??
      str(response, 'profile', 'profileArn') ??
      str(request, 'name') ??
      str(request, 'trustAnchorId') ??
      str(request, 'profileId');
    return one(arn, `Roles Anywhere ${name.includes('Profile') ? 'profile' : 'trust anchor'} ${arn}: ${name}.`);
  },
  'event.federation_token_issued': ({ detail, request }) => {
    const user = callerUser(detail);
    const federated = str(request, 'name') ?? 'unnamed';
    return user ? one(`federated-user/${federated}`, `IAM user ${user} got a federation token as ${federated}.`) : [];
  },
  'event.access_key_created_for_another_user': ({ event, detail, request, response }) => {
    const user = str(request, 'userName');
    if (!user || user === callerUser(detail)) return [];
    const key = str(response, 'accessKey', 'accessKeyId');
    return one(
      iamArn(event, 'user', user),
      `Access key ${key ?? ''} was created for IAM user ${user} by another identity.`,
    );
  },
  'event.login_profile_updated': ({ event, detail, request }) => {
    const user = str(request, 'userName');
    if (!user || user === callerUser(detail)) return [];
    return one(
      iamArn(event, 'user', user),
      `The console password of IAM user ${user} was changed by another identity.`,
    );
  },
  'event.mfa_device_removed': ({ event, name, request }) => {
    const user = str(request, 'userName');
    const serial = str(request, 'serialNumber');
    return one(
      user ? iamArn(event, 'user', user) : serial,
      `MFA device ${serial ?? ''} ${name === 'DeactivateMFADevice' ? `was deactivated for ${user}` : 'was deleted'}.`,
    );
  },
  'event.access_key_reactivated': ({ request }) => {
    if (str(request, 'status') !== 'Active') return [];
    const key = str(request, 'accessKeyId');
    const user = str(request, 'userName');
    return one(key, `Access key ${key}${user ? ` of IAM user ${user}` : ''} was set back to Active.`);
  },
  'event.compromised_key_quarantine_attached': ({ event, request }) => {
    const policy = str(request, 'policyArn') ?? '';
    if (!/:policy\/AWSCompromisedKeyQuarantine/.test(policy)) return [];
    const user = str(request, 'userName');
    const role = str(request, 'roleName');
    const arn = user ? iamArn(event, 'user', user) : role ? iamArn(event, 'role', role) : null;
    return one(arn, `${policy.split('/').pop()} was attached to ${user ? `user ${user}` : `role ${role}`}.`);
  },
  'event.identity_provider_changed': ({ name, request, response }) => {
    const provider =
      str(response, 'sAMLProviderArn') ??
      str(response, 'oIDCProviderArn') ??
      str(request, 'sAMLProviderArn') ??
      str(request, 'openIDConnectProviderArn') ??
      str(request, 'name') ??
      str(request, 'url');
    return one(provider, `Identity provider ${provider}: ${name}.`);
  },
  'event.identity_center_access_granted': ({ name, request }) => {
    const permissionSet = str(request, 'permissionSetArn') ?? str(request, 'name');
    const target = str(request, 'targetId');
    const principal = str(request, 'principalId');
    const where = target ? ` in account ${target}${principal ? ` for ${principal}` : ''}` : '';
    return one(permissionSet, `Permission set ${permissionSet}${where}: ${name}.`);
  },
  'event.guardduty_findings_suppressed': ({ request }) => {
    if (str(request, 'action')?.toUpperCase() !== 'ARCHIVE') return [];
    const filter = str(request, 'filterName') ?? str(request, 'name');
    return one(
      filter && `${str(request, 'detectorId')}/${filter}`,
      `GuardDuty filter ${filter} archives the findings it matches.`,
    );
  },
  'event.guardduty_trusted_ip_list_added': ({ name, request }) => {
    if (request.activate === false) return [];
    const list = str(request, 'ipSetId') ?? str(request, 'name');
    return one(list, `GuardDuty trusted IP list ${list}: ${name}.`);
  },
  'event.guardduty_export_or_members_changed': ({ name, request }) => {
    const detector = str(request, 'detectorId');
    const members = strings(request.accountIds);
    return one(detector, `GuardDuty detector ${detector}: ${name}${members.length ? ` (${listed(members)})` : ''}.`);
  },
  'event.config_recording_stopped': ({ name, request }) => {
    const subject = str(request, 'configurationRecorderName') ?? str(request, 'deliveryChannelName');
    return one(subject, `AWS Config ${subject}: ${name}.`);
  },
  'event.security_hub_disabled': ({ event, name, request }) => {
    const suppressed = (value: unknown) => valuesOf(value, 'status').some((s) => s.toUpperCase() === 'SUPPRESSED');
    if (name === 'BatchUpdateFindings' && !suppressed(request.workflow)) return [];
    if (name === 'CreateAutomationRule' && !suppressed(request.actions)) return [];
    const subject =
      name === 'BatchUpdateFindings' || name === 'CreateAutomationRule' ? 'findings suppressed' : 'Security Hub';
    return one(`securityhub/${event.region}`, `Security Hub in ${event.region}: ${name} (${subject}).`);
  },
  'event.cloudwatch_alarms_silenced': ({ name, request }) => {
    const alarms = strings(request.alarmNames);
    return one(alarms[0] ?? null, `CloudWatch alarms ${listed(alarms)}: ${name}.`);
  },
  'event.log_group_deleted': ({ request }) => {
    const group = str(request, 'logGroupName');
    return one(group, `Log group ${group} was deleted.`);
  },
  'event.access_analyzer_deleted': ({ request }) => {
    const analyzer = str(request, 'analyzerName');
    return one(analyzer, `IAM Access Analyzer ${analyzer} was deleted.`);
  },
  'event.dns_query_logging_deleted': ({ name, request }) => {
    const config = str(request, 'resolverQueryLogConfigId');
    return one(config, `Resolver query logging configuration ${config}: ${name}.`);
  },
  'event.flow_logs_deleted': ({ request }) => {
    const ids = strings(pathOf(request, 'DeleteFlowLogsRequest', 'FlowLogId') ?? request.flowLogIds);
    return one(ids[0] ?? 'flow-logs', `Flow logs ${listed(ids)} were deleted.`);
  },
  'event.organization_left': ({ event }) => one(event.account, `Account ${event.account} left its AWS Organization.`),
  'event.bedrock_invocation_logging_removed': ({ event }) =>
    one('model-invocation-logging', `Bedrock model invocation logging was deleted in ${event.region}.`),
  'event.ami_shared': ({ event, request }) => {
    const to = sharedWith(event, pathOf(request, 'launchPermission', 'add'));
    const image = str(request, 'imageId');
    return to.length === 0 ? [] : one(image, `AMI ${image} was shared with ${listed(to)}.`);
  },
  'event.ebs_snapshot_shared': ({ event, request }) => {
    const to = sharedWith(event, pathOf(request, 'createVolumePermission', 'add'));
    const snapshot = str(request, 'snapshotId');
    return to.length === 0 ? [] : one(snapshot, `EBS snapshot ${snapshot} was shared with ${listed(to)}.`);
  },
  'event.rds_snapshot_shared': ({ event, request }) => {
    if (str(request, 'attributeName') !== 'restore') return [];
    const to = strings(request.valuesToAdd).filter((v) => v !== event.account);
    const snapshot = str(request, 'dBSnapshotIdentifier') ?? str(request, 'dBClusterSnapshotIdentifier');
    return to.length === 0 ? [] : one(snapshot, `Snapshot ${snapshot} was shared with ${listed(to)}.`);
  },
  'event.s3_bucket_shared_externally': ({ event, request }) => {
    // A public statement is event.s3_bucket_made_public's: this one is about named outside accounts.
    const accounts = outsiders(event, request.bucketPolicy, false);
    const bucket = str(request, 'bucketName');
    return accounts.length === 0
      ? []
      : one(bucket, `The policy of bucket ${bucket} allows account ${listed(accounts)}.`);
  },
  'event.gpu_capacity_requested': ({ name, request }) => {
    const types = [...new Set(valuesOf(request, 'instanceType').filter(isHighEnd))];
    if (types.length === 0) return [];
    const subject =
      str(request, 'launchTemplateName') ?? str(request, 'launchTemplateId') ?? str(request, 'clientToken') ?? name;
    return one(subject, `${name} asked for ${listed(types)}.`);
  },
  'event.gpu_instance_launch_attempted': ({ detail, request }) => {
    const types = [...new Set(valuesOf(request, 'instanceType').filter(isHighEnd))];
    if (types.length === 0) return [];
    return one(types[0] as string, `A launch of ${listed(types)} was refused: ${str(detail, 'errorCode')}.`);
  },
  'event.lightsail_instances_created': ({ request }) => {
    const names = strings(request.instanceNames);
    return one(
      names[0] ?? null,
      `Lightsail instances ${listed(names)} were created (bundle ${str(request, 'bundleId') ?? 'unknown'}).`,
    );
  },
  'event.batch_compute_environment_created': ({ name, request }) => {
    const environment = str(request, 'computeEnvironmentName') ?? str(request, 'computeEnvironment');
    const types = valuesOf(request, 'instanceTypes').concat(
      strings(pathOf(request, 'computeResources', 'instanceTypes')),
    );
    return one(
      environment,
      `Batch compute environment ${environment}: ${name}${types.length ? ` (${listed(types)})` : ''}.`,
    );
  },
  'event.auto_scaling_group_created': ({ name, request }) => {
    const group = str(request, 'autoScalingGroupName');
    const desired = Number(request.desiredCapacity ?? request.maxSize ?? 0);
    if (name !== 'CreateAutoScalingGroup' && !(desired >= 10)) return [];
    return one(group, `Auto Scaling group ${group}: ${name}${desired ? `, capacity ${desired}` : ''}.`);
  },
  'event.service_quota_increase_requested': ({ request }) => {
    const quota = `${str(request, 'serviceCode')}/${str(request, 'quotaCode')}`;
    return one(quota, `An increase of quota ${quota} to ${String(request.desiredValue ?? '?')} was requested.`);
  },
  'event.sagemaker_gpu_resource_created': ({ name, request }) => {
    const types = valuesOf(request, 'instanceType').filter((t) => /^ml\.(p|g|trn|inf)\d/.test(t));
    if (types.length === 0) return [];
    const subject =
      str(request, 'notebookInstanceName') ?? str(request, 'trainingJobName') ?? str(request, 'endpointConfigName');
    return one(subject, `SageMaker ${name} on ${listed([...new Set(types)])}.`);
  },
  'event.bedrock_model_access_enabled': ({ event, name, request }) => {
    const model = str(request, 'modelId') ?? str(request, 'offerToken') ?? `bedrock/${event.region}`;
    return one(model, `Bedrock model access: ${name}${model.startsWith('bedrock/') ? '' : ` for ${model}`}.`);
  },
  'event.kms_key_disabled_or_deleted': ({ name, request }) => {
    const key = str(request, 'keyId');
    const days = request.pendingWindowInDays ? `, deleted in ${String(request.pendingWindowInDays)} days` : '';
    return one(key, `KMS key ${key}: ${name}${days}.`);
  },
  'event.kms_key_policy_opened': ({ event, name, request }) => {
    const key = str(request, 'keyId');
    if (name === 'CreateGrant') {
      const grantee = str(request, 'granteePrincipal') ?? '';
      const account = accountOfArn(grantee);
      return account && account !== event.account ? one(key, `KMS key ${key} was granted to ${grantee}.`) : [];
    }
    const to = outsiders(event, request.policy);
    return to.length === 0 ? [] : one(key, `The policy of KMS key ${key} now allows ${listed(to)}.`);
  },
  'event.s3_versioning_suspended': ({ request }) => {
    const status = str(request, 'VersioningConfiguration', 'Status');
    const bucket = str(request, 'bucketName');
    return status === 'Suspended' ? one(bucket, `Versioning of bucket ${bucket} was suspended.`) : [];
  },
  'event.s3_expiration_lifecycle_rule': ({ request }) => {
    const rules = objects(pathOf(request, 'LifecycleConfiguration', 'Rule'));
    const days = rules
      .filter((r) => str(r, 'Status') !== 'Disabled')
      .map((r) => Number(pathOf(r, 'Expiration', 'Days')))
      .filter((d) => Number.isFinite(d) && d > 0 && d <= 7);
    const bucket = str(request, 'bucketName');
    return days.length === 0
      ? []
      : one(bucket, `Bucket ${bucket} now deletes objects ${Math.min(...days)} day(s) after they are written.`);
  },
  'event.s3_objects_encrypted_with_customer_key': ({ name, request }) => {
    if (!request['x-amz-server-side-encryption-customer-algorithm']) return [];
    const bucket = str(request, 'bucketName');
    return one(
      bucket,
      `${name} wrote ${str(request, 'key') ?? 'an object'} to bucket ${bucket} with a customer-provided key.`,
    );
  },
  'event.backups_deleted': ({ name, request }) => {
    const subject = str(request, 'recoveryPointArn') ?? str(request, 'backupVaultName') ?? str(request, 'backupPlanId');
    return one(subject, `AWS Backup ${subject}: ${name}.`);
  },
  'event.ami_deregistered': ({ request }) => {
    const image = str(request, 'imageId');
    return one(image, `AMI ${image} was deregistered.`);
  },
  'event.ssm_command_sent': ({ request }) => {
    const document = str(request, 'documentName') ?? 'a document';
    const instances = strings(request.instanceIds);
    const targets = instances.length > 0 ? listed(instances) : 'instances chosen by tag';
    return one(document, `Command ${document} was sent to ${targets}.`);
  },
  'event.ssm_session_started': ({ request }) => {
    const target = str(request, 'target');
    return one(target, `A Session Manager session was started on ${target}.`);
  },
  'event.instance_user_data_changed': ({ request }) => {
    if (request.userData === undefined) return [];
    const instance = str(request, 'instanceId');
    return one(instance, `The user data of instance ${instance} was changed.`);
  },
  'event.instance_ssh_key_pushed': ({ name, request }) => {
    const instance = str(request, 'instanceId');
    const user = str(request, 'instanceOSUser');
    return one(instance, `${name} pushed a key to instance ${instance}${user ? ` for ${user}` : ''}.`);
  },
  'event.serial_console_access_enabled': ({ event }) =>
    one(`serial-console/${event.region}`, `EC2 serial console access was enabled in ${event.region}.`),
  'event.sagemaker_lifecycle_config_changed': ({ name, request }) => {
    if (name === 'UpdateNotebookInstance' && !str(request, 'lifecycleConfigName')) return [];
    const config = str(request, 'notebookInstanceLifecycleConfigName') ?? str(request, 'lifecycleConfigName');
    const notebook = str(request, 'notebookInstanceName');
    return one(config, `Lifecycle configuration ${config}${notebook ? ` on notebook ${notebook}` : ''}: ${name}.`);
  },
  'event.lambda_function_made_public': ({ request }) => {
    const narrowed = ['sourceArn', 'sourceAccount', 'principalOrgID'].some((k) => str(request, k));
    if (str(request, 'principal') !== '*' || narrowed) return [];
    const fn = str(request, 'functionName');
    return one(
      fn,
      `Function ${fn} may now be invoked by anyone (${str(request, 'action') ?? 'lambda:InvokeFunction'}).`,
    );
  },
  'event.lambda_function_url_public': ({ request }) => {
    const fn = str(request, 'functionName');
    return str(request, 'authType') === 'NONE' ? one(fn, `Function ${fn} has a URL anyone can call.`) : [];
  },
  'event.lambda_code_updated': ({ request }) => {
    const fn = str(request, 'functionName');
    return one(fn, `The code of function ${fn} was replaced.`);
  },
  'event.lambda_foreign_layer_added': ({ event, request }) => {
    const foreign = strings(request.layers).filter((arn) => {
      const account = accountOfArn(arn);
      return account !== undefined && account !== event.account;
    });
    const fn = str(request, 'functionName');
    return foreign.length === 0 ? [] : one(fn, `Function ${fn} now uses layers of other accounts: ${listed(foreign)}.`);
  },
  'event.ec2_password_data_retrieved': ({ detail, request }) => {
    const instance = str(request, 'instanceId');
    const outcome = failed(detail) ? ` (refused: ${str(detail, 'errorCode')})` : '';
    return one(instance, `The Windows password of instance ${instance} was requested${outcome}.`);
  },
  'event.instance_user_data_read': ({ detail, request }) => {
    if (str(request, 'attribute') !== 'userData') return [];
    const instance = str(request, 'instanceId');
    const outcome = failed(detail) ? ` (refused: ${str(detail, 'errorCode')})` : '';
    return one(instance, `The user data of instance ${instance} was read${outcome}.`);
  },
  'event.secrets_batch_retrieved': ({ event, request }) => {
    const ids = strings(request.secretIdList);
    const what = ids.length > 0 ? `${ids.length} secret(s): ${listed(ids)}` : 'secrets chosen by filter';
    return one(`secretsmanager/${event.region}`, `BatchGetSecretValue read ${what}.`);
  },
  'event.ses_enumerated_with_user_key': ({ event, detail, name }) => {
    const user = callerUser(detail);
    const key = str(detail, 'userIdentity', 'accessKeyId') ?? '';
    if (!user || !key.startsWith('AKIA')) return [];
    return one(iamArn(event, 'user', user), `IAM user ${user} called SES ${name} with long-term key ${key}.`);
  },
  'event.account_contacts_changed': ({ event, name, request }) => {
    // A management account may set a member's contacts: that is the member's change, as for a deleted contact.
    const target = str(request, 'accountId') ?? str(request, 'AccountId');
    if (target && target !== event.account) return [];
    const kind = str(request, 'alternateContactType') ?? 'contact information';
    return one(`contact/${kind}`, `The account's ${kind.toLowerCase()} was set (${name}).`);
  },
  'event.root_email_change_started': ({ name }) => one('root', `A change of the root user's e-mail address: ${name}.`),
  'event.domain_transfer_started': ({ name, request }) => {
    const domain = str(request, 'domainName');
    const to = str(request, 'accountId');
    return one(domain, `Domain ${domain}: ${name}${to ? ` to account ${to}` : ''}.`);
  },
  'event.ses_sending_changed': ({ event, name, request }) => {
    if (name === 'UpdateAccountSendingEnabled' && request.enabled !== true) return [];
    if (name === 'PutAccountDetails' && request.productionAccessEnabled !== true) return [];
    return one(`ses/${event.region}`, `SES in ${event.region}: ${name}.`);
  },
  'event.iam_policy_version_grants_escalation': ({ request }) => {
    const grants = escalationGrants(parsePolicy(request.policyDocument));
    const policy = str(request, 'policyArn');
    const made = request.setAsDefault === true ? 'made the default' : 'not the default yet';
    return grants.length === 0
      ? []
      : one(policy, `A new version of policy ${policy} (${made}) allows ${listed(grants)} on every resource.`);
  },
  'event.eks_cluster_admin_granted': ({ name, request }) => {
    const cluster = str(request, 'clusterName') ?? str(request, 'name');
    const principal = str(request, 'principalArn');
    const policy = str(request, 'policyArn')?.split('/').pop() ?? '';
    const clusterWide = str(request, 'accessScope', 'type') !== 'namespace';
    const granted =
      name === 'AssociateAccessPolicy'
        ? policy === 'AmazonEKSClusterAdminPolicy' || (policy === 'AmazonEKSAdminPolicy' && clusterWide)
          ? policy
          : null
        : strings(request.kubernetesGroups).includes('system:masters')
          ? 'the system:masters group'
          : null;
    return granted ? one(cluster, `${principal} was given ${granted} on EKS cluster ${cluster} (${name}).`) : [];
  },
  'event.eks_endpoint_made_public': ({ name, request }) => {
    const config = asObject(request.resourcesVpcConfig);
    if (!config) return [];
    const cidrs = strings(config.publicAccessCidrs);
    // A new cluster's endpoint is public to every address unless the request says otherwise.
    const publicAccess = config.endpointPublicAccess ?? (name === 'CreateCluster' ? true : undefined);
    const fromInternet = cidrs.some((c) => INTERNET.has(c));
    const open =
      publicAccess === true ? cidrs.length === 0 || fromInternet : publicAccess === undefined && fromInternet;
    const cluster = str(request, 'name');
    return open ? one(cluster, `The API endpoint of EKS cluster ${cluster} is public to the internet (${name}).`) : [];
  },
  'event.rds_instance_made_public': ({ name, request }) => {
    const instance = str(request, 'dBInstanceIdentifier');
    return request.publiclyAccessible === true
      ? one(instance, `Database instance ${instance} is publicly accessible (${name}).`)
      : [];
  },
  'event.rds_master_password_changed': ({ name, request }) => {
    // CloudTrail writes the password itself hidden; that the request set one is what matters.
    if (request.masterUserPassword === undefined && request.rotateMasterUserPassword !== true) return [];
    const database = str(request, 'dBInstanceIdentifier') ?? str(request, 'dBClusterIdentifier');
    return one(database, `The master password of ${database} was reset (${name}).`);
  },
  'event.vpc_peering_to_outside_account': ({ event, request, response }) => {
    const peer = str(request, 'peerOwnerId');
    if (!peer || peer === event.account) return [];
    const vpc = str(request, 'vpcId');
    const connection = str(response, 'vpcPeeringConnection', 'vpcPeeringConnectionId') ?? vpc;
    return one(connection, `VPC ${vpc} asked to peer with ${str(request, 'peerVpcId') ?? 'a VPC'} of account ${peer}.`);
  },
  'event.traffic_mirror_session_created': ({ request, response }) => {
    const session = valuesOf(response, 'trafficMirrorSessionId')[0] ?? null;
    const source = valuesOf(request, 'networkInterfaceId')[0] ?? 'a network interface';
    const target = valuesOf(request, 'trafficMirrorTargetId')[0] ?? 'a mirror target';
    return one(session ?? source, `The traffic of ${source} is mirrored to ${target}.`);
  },
  'event.ecr_repository_shared_externally': ({ event, request }) => {
    const to = outsiders(event, request.policyText);
    const repository = str(request, 'repositoryName');
    return to.length === 0 ? [] : one(repository, `The policy of repository ${repository} now allows ${listed(to)}.`);
  },
  'event.sns_topic_shared_externally': ({ event, name, request }) => {
    const to =
      name === 'AddPermission'
        ? strings(fieldOf(request, 'AWSAccountId')).filter((a) => a !== event.account)
        : outsiders(
            event,
            name === 'CreateTopic'
              ? fieldOf(asObject(request.attributes), 'Policy')
              : str(request, 'attributeName') === 'Policy'
                ? request.attributeValue
                : undefined,
          );
    const topic = str(request, 'topicArn') ?? str(request, 'name');
    return to.length === 0 ? [] : one(topic, `SNS topic ${topic} now allows ${listed(to)} (${name}).`);
  },
  'event.sqs_queue_shared_externally': ({ event, name, request }) => {
    const to =
      name === 'AddPermission'
        ? strings(fieldOf(request, 'AWSAccountIds')).filter((a) => a !== event.account)
        : outsiders(event, fieldOf(asObject(request.attributes), 'Policy'));
    const queue = str(request, 'queueUrl') ?? str(request, 'queueName');
    return to.length === 0 ? [] : one(queue, `SQS queue ${queue} now allows ${listed(to)} (${name}).`);
  },
  'event.secret_policy_opened': ({ event, request }) => {
    const to = outsiders(event, request.resourcePolicy);
    const secret = str(request, 'secretId');
    return to.length === 0 ? [] : one(secret, `The resource policy of secret ${secret} now allows ${listed(to)}.`);
  },
  'event.secret_deletion_scheduled': ({ name, request }) => {
    const secret = str(request, 'secretId');
    const what =
      name === 'CancelRotateSecret'
        ? 'no longer rotates'
        : request.forceDeleteWithoutRecovery === true
          ? 'was deleted without a recovery window'
          : `is scheduled for deletion in ${String(request.recoveryWindowInDays ?? 30)} days`;
    return one(secret, `Secret ${secret} ${what}.`);
  },
  'event.cloudformation_stackset_created': ({ event, name, request }) => {
    const stackSet = str(request, 'stackSetName');
    if (name === 'CreateStackSet') return one(stackSet, `StackSet ${stackSet} was created.`);
    const accounts = strings(request.accounts).concat(strings(pathOf(request, 'deploymentTargets', 'accounts')));
    const units = strings(pathOf(request, 'deploymentTargets', 'organizationalUnitIds'));
    // Stacks of a StackSet in this account alone spread nothing.
    const targets = [...accounts.filter((a) => a !== event.account), ...units];
    return targets.length === 0
      ? []
      : one(
          stackSet,
          `StackSet ${stackSet} deploys stacks to ${listed(targets)} (${listed(strings(request.regions))}).`,
        );
  },
  'event.glue_dev_endpoint_key_added': ({ name, request }) => {
    const keys = [...strings(request.publicKey), ...strings(request.publicKeys), ...strings(request.addPublicKeys)];
    const endpoint = str(request, 'endpointName');
    return keys.length === 0
      ? []
      : one(endpoint, `Glue development endpoint ${endpoint} accepts a new SSH key (${name}).`);
  },
  'event.ecs_privileged_task_registered': ({ request }) => {
    const containers = objects(request.containerDefinitions);
    const privileged = containers.filter((c) => c.privileged === true).map((c) => str(c, 'name') ?? 'unnamed');
    const gpu = containers
      .filter((c) => objects(c.resourceRequirements).some((r) => str(r, 'type') === 'GPU'))
      .map((c) => str(c, 'name') ?? 'unnamed');
    if (privileged.length === 0 && gpu.length === 0) return [];
    const family = str(request, 'family');
    const what = [
      privileged.length > 0 ? `privileged container(s) ${listed(privileged)}` : '',
      gpu.length > 0 ? `GPUs for ${listed(gpu)}` : '',
    ].filter(Boolean);
    return one(family, `Task definition ${family} was registered with ${what.join(' and ')}.`);
  },
  'event.route53_query_logging_deleted': ({ request }) => {
    const config = str(request, 'id');
    return one(config, `Route 53 query logging configuration ${config} was deleted.`);
  },
  'event.network_acl_opened': ({ name, request }) => {
    if (request.egress === true || str(request, 'ruleAction') !== 'allow') return [];
    const cidr = str(request, 'cidrBlock') ?? str(request, 'ipv6CidrBlock');
    if (!cidr || !INTERNET.has(cidr)) return [];
    const from = Number(pathOf(request, 'portRange', 'from'));
    const to = Number(pathOf(request, 'portRange', 'to'));
    const everything = protocolOf(request.aclProtocol) === '-1' || (from <= 0 && to >= 65535);
    const acl = str(request, 'networkAclId');
    return everything
      ? one(
          acl,
          `Network ACL ${acl} allows all inbound traffic from ${cidr} (rule ${String(request.ruleNumber)}, ${name}).`,
        )
      : [];
  },
  'event.iam_role_max_session_raised': ({ event, name, request }) => {
    const seconds = Number(request.maxSessionDuration);
    const role = str(request, 'roleName');
    return role && seconds > DEFAULT_ROLE_SESSION_SECONDS
      ? one(iamArn(event, 'role', role), `Sessions of role ${role} may now last ${seconds / 3600} hours (${name}).`)
      : [];
  },
  'event.organizations_policy_detached': ({ name, request }) => {
    if (name === 'DisablePolicyType') {
      const type = str(request, 'policyType');
      const root = str(request, 'rootId');
      return type === 'SERVICE_CONTROL_POLICY'
        ? one(root, `Service control policies were turned off for ${root}.`)
        : [];
    }
    const policy = str(request, 'policyId');
    // AWS's FullAWSAccess allows everything: detaching it takes permissions away rather than giving any back.
    if (policy === FULL_AWS_ACCESS) return [];
    return one(policy, `Policy ${policy} was detached from ${str(request, 'targetId') ?? 'its target'}.`);
  },
};

/**
 * The call of one of the detection's names; null for anything else. (A call of Sentinel's own roles never reaches a
 * detection: domain/events/detections.ts `detectEvent`.)
 */
function callOf(event: AccountEvent, description: PlaybookDescription): Call | null {
  const { detail } = event;
  const { calls } = description;
  if (event.detailType !== CLOUDTRAIL_API_CALL || detail.eventSource !== calls.eventSource) return null;
  if (event.eventName === null || !calls.names.includes(event.eventName)) return null;
  const outcome = OUTCOMES[description.id] ?? 'success';
  if ((outcome === 'success' && failed(detail)) || (outcome === 'failure' && !failed(detail))) return null;
  return {
    event,
    name: event.eventName,
    detail,
    request: params(detail),
    response: asObject(detail.responseElements) ?? {},
  };
}

export const PLAYBOOK_DETECTIONS: readonly EventDetection[] = Object.freeze(
  PLAYBOOK_CATALOG.map((description): EventDetection => {
    const rule = RULES[description.id];
    if (!rule) throw new Error(`No rule for ${description.id}`);
    return {
      ...description,
      detect: (event, context) => {
        const call = callOf(event, description);
        return call ? rule(call, context) : [];
      },
    };
  }),
);
