import { isDeepStrictEqual } from 'node:util';
import {
  countAlertRules,
  findAlertRule,
  insertAlertRule,
  installedSlackTeams,
  listAlertRules,
  lockAlertRule,
  type RuleFields,
  softDeleteAlertRule,
  updateAlertRule,
} from '../../db/repositories/alert-rules';
import { lockTenant } from '../../db/repositories/tenants';
import type { AlertRuleRow } from '../../db/tables/alerts';
import { type ChannelConfig, isSlackWebhook } from '../../domain/alerts/channels';
import { newId } from '../../domain/ids';
import { hasRole } from '../../domain/tenancy/roles';
import { keepMaskedSecrets, maskChannel, openChannel, sealChannel } from '../../security/channel-secrets';
import { ALERT_RULES_PER_TENANT } from '../../domain/tenancy/limits';
import type { AppDeps, Caller } from '../deps';
import { AppError, type FieldProblem, notFound } from '../errors';
import { type CreateAlertRuleInput, createAlertRuleInput, type PatchAlertRuleInput } from '../schemas/alerts';
import { parseInput } from '../validation';
import { audit } from '../audit-log';

type Deps = Pick<AppDeps, 'db' | 'config' | 'log'>;

// Anything else cannot be one of our ids; answering 404 at once also keeps odd bytes away from the query.
const RULE_ID = /^[A-Za-z0-9_]{1,64}$/;

function fieldsOf(row: AlertRuleRow): RuleFields {
  const { name, min_srs, scenarios, enabled } = row;
  return { name, min_srs, scenarios, channels: row.channels, enabled };
}

// jsonb keeps object keys in its own order; `type` first reads better.
function typeFirst(channel: ChannelConfig): ChannelConfig {
  return Object.assign({ type: channel.type }, channel);
}

/**
 * The rule as the API shows it: channel secrets masked, or in clear for an admin who asked to see them.
 * (`channels` of a row are as stored: their secrets sealed.)
 */
function toRule(row: AlertRuleRow, key: Buffer, { reveal = false } = {}) {
  const fields = fieldsOf(row);
  return {
    rule_id: row.id,
    name: fields.name,
    min_srs: fields.min_srs,
    scenarios: fields.scenarios,
    channels: fields.channels.map((c) => typeFirst(reveal ? openChannel(key, c) : maskChannel(key, c))),
    enabled: fields.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const sealed = (key: Buffer, fields: RuleFields): RuleFields => ({
  ...fields,
  channels: fields.channels.map((c) => sealChannel(key, c)),
});

/** Same origin and a path under the prefix's, on the parsed URL, so look-alike hosts and userinfo tricks fail. */
function underPrefix(url: string, prefix: string): boolean {
  const target = new URL(url);
  const allowed = new URL(prefix);
  return (
    target.username === '' &&
    target.password === '' &&
    target.origin === allowed.origin &&
    target.pathname.startsWith(allowed.pathname)
  );
}

/**
 * What the request schema cannot know: the webhook prefix is configuration and Slack workspaces are installed
 * per tenant. Reported like schema failures, naming each failing field.
 */
async function checkChannels({ db, config }: Deps, caller: Caller, channels: ChannelConfig[]): Promise<void> {
  const problems: FieldProblem[] = [];
  const teamIds = channels.flatMap((c) => (c.type === 'slack' && !isSlackWebhook(c) ? [c.team_id] : []));
  const installed = await installedSlackTeams({ db, tenantId: caller.tenantId, teamIds });
  channels.forEach((c, i) => {
    if (c.type !== 'slack') return;
    if (isSlackWebhook(c)) {
      const prefix = config.slack.webhookUrlPrefix;
      if (!underPrefix(c.webhook_url, prefix))
        problems.push({ field: `channels.${i}.webhook_url`, message: `must start with ${prefix}` });
    } else if (!installed.has(c.team_id)) {
      problems.push({
        field: `channels.${i}.team_id`,
        message:
          'is not a Slack workspace installed for this tenant (install it through /integrations/slack/oauth-start)',
      });
    }
  });
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    throw new AppError('validation_failed', `Invalid request body: ${summary}`, { details: problems });
  }
}

export async function listTenantAlertRules({ db, config }: Pick<AppDeps, 'db' | 'config'>, caller: Caller) {
  const rows = await listAlertRules({ db, tenantId: caller.tenantId });
  return { rules: rows.map((row) => toRule(row, config.secrets.dataEncryptionKey)), count: rows.length };
}

/** One rule; `reveal` shows its channel secrets in clear, to admins and owners only, and is logged as such. */
export async function getAlertRule(
  { db, config, log }: Deps,
  caller: Caller,
  ruleId: string,
  { reveal }: { reveal: boolean },
) {
  if (reveal && !hasRole(caller.role, 'admin'))
    throw new AppError('forbidden', 'Revealing channel secrets requires the admin role or higher');
  const row = RULE_ID.test(ruleId) ? await findAlertRule({ db, tenantId: caller.tenantId, ruleId }) : undefined;
  if (!row) throw notFound('Alert rule');
  if (reveal) {
    await audit(db, caller, 'alert_rule.secrets_revealed', `rule:${ruleId}`);
    log.info({ ruleId, userId: caller.userId }, 'alert rule channel secrets revealed');
  }
  return toRule(row, config.secrets.dataEncryptionKey, { reveal });
}

/** Creates a rule; the tenant's rules are counted under its lock, so parallel creates cannot pass the cap. */
export async function createAlertRule(deps: Deps, caller: Caller, input: CreateAlertRuleInput) {
  await checkChannels(deps, caller, input.channels);
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockTenant({ db: trx, tenantId: caller.tenantId });
    if ((await countAlertRules({ db: trx, tenantId: caller.tenantId })) >= ALERT_RULES_PER_TENANT) {
      throw new AppError(
        'plan_limit_exceeded',
        `A tenant has at most ${ALERT_RULES_PER_TENANT} alert rules; delete one to create another`,
      );
    }
    const created = await insertAlertRule({
      db: trx,
      rule: { id: newId('rule'), tenant_id: caller.tenantId, ...sealed(deps.config.secrets.dataEncryptionKey, input) },
    });
    await audit(trx, caller, 'alert_rule.created', `rule:${created.id}`, { name: created.name });
    return created;
  });
  deps.log.info({ ruleId: row.id }, 'alert rule created');
  return toRule(row, deps.config.secrets.dataEncryptionKey);
}

/**
 * Applies a partial change to a live rule. Lists are replaced, not merged; the merged rule is validated as a
 * whole. A change that leaves the rule as it was writes nothing, so re-saving an unchanged form does not re-arm
 * the rule (which a version bump would).
 */
export async function patchAlertRule(deps: Deps, caller: Caller, ruleId: string, patch: PatchAlertRuleInput) {
  const key = deps.config.secrets.dataEncryptionKey;
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = RULE_ID.test(ruleId)
      ? await lockAlertRule({ db: trx, tenantId: caller.tenantId, ruleId })
      : undefined;
    if (!current) throw notFound('Alert rule');
    const stored = fieldsOf(current);
    const before = { ...stored, channels: stored.channels.map((c) => openChannel(key, c)) };
    // A masked secret sent back (an edit form shows no more) keeps the secret stored at its position.
    const channels = patch.channels && keepMaskedSecrets(patch.channels, before.channels);
    const merged = parseInput(createAlertRuleInput, { ...before, ...patch, ...(channels ? { channels } : {}) });
    // Only channels being written are checked against the installs and the prefix: a rule whose workspace was
    // uninstalled later can still be renamed or disabled.
    if (patch.channels) await checkChannels({ ...deps, db: trx }, caller, merged.channels);
    if (isDeepStrictEqual(before, merged)) return current;
    await audit(trx, caller, 'alert_rule.updated', `rule:${ruleId}`, {
      name: merged.name,
      changed: Object.keys(patch).sort().join(','),
    });
    return updateAlertRule({ db: trx, tenantId: caller.tenantId, ruleId, fields: sealed(key, merged) });
  });
  deps.log.info({ ruleId }, 'alert rule updated');
  return toRule(row, key);
}

export async function deleteAlertRule({ db, log }: Deps, caller: Caller, ruleId: string) {
  const deleted = RULE_ID.test(ruleId) && (await softDeleteAlertRule({ db, tenantId: caller.tenantId, ruleId }));
  if (!deleted) throw notFound('Alert rule');
  await audit(db, caller, 'alert_rule.deleted', `rule:${ruleId}`);
  log.info({ ruleId }, 'alert rule deleted');
  return { message: `Alert rule ${ruleId} deleted` };
}
