import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config/config';
import {
  consumeOauthState,
  deleteExpiredOauthStates,
  deleteSlackInstallation,
  insertOauthState,
  listSlackInstallations,
  upsertSlackInstallation,
} from '../../db/repositories/slack-installations';
import { findUser } from '../../db/repositories/users';
import { newId } from '../../domain/ids';
import { hasRole } from '../../domain/tenancy/roles';
import { encryptSecret } from '../../security/crypto';
import { escapeHtml } from '../../security/html';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import { slackInstallOutcome, slackInstallState } from '../schemas/integrations';
import { parseInput } from '../validation';
import { sha256 } from '../../security/crypto';

// Bot scopes only: post alerts (chat:write.public lets the bot post in public channels it was not invited to)
// and resolve channel names.
const SLACK_BOT_SCOPES = ['chat:write', 'chat:write.public', 'channels:read'] as const;
const EXCHANGE_TIMEOUT_MS = 10_000;

/** A page for the browser that comes back from Slack (the callback is a browser navigation, not an API call). */
export interface InstallPage {
  status: 200 | 400;
  html: string;
}

function slackApp(config: Readonly<Config>): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = config.slack;
  if (!clientId || !clientSecret) {
    throw new AppError(
      'slack_not_configured',
      'The Slack app is not configured on this server (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET)',
    );
  }
  return { clientId, clientSecret };
}

/** Always the canonical path: oauth.v2.access requires the redirect_uri the authorize step was given. */
const redirectUri = (config: Readonly<Config>) => `${config.http.publicBaseUrl}/webhooks/slack/install`;

const invalidState = (
  message = 'The install link is invalid, expired or already used; start the Slack install again',
) => new AppError('invalid_oauth_state', message);
const upstreamFailed = (message: string) => new AppError('upstream_failed', message);

/**
 * Starts an install: a random state bound to the caller's tenant and user, single-use and valid ten minutes,
 * stored only as its SHA-256 (a database leak does not yield usable states).
 */
export async function startSlackInstall({ db, config, log }: AppDeps, caller: Caller) {
  const { clientId } = slackApp(config);
  const state = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await deleteExpiredOauthStates({ db: trx, tenantId: caller.tenantId });
    await insertOauthState({ db: trx, tenantId: caller.tenantId, userId: caller.userId, stateHash: sha256(state) });
  });
  const url = new URL(config.slack.authorizeUrl);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('scope', SLACK_BOT_SCOPES.join(','));
  url.searchParams.set('redirect_uri', redirectUri(config));
  url.searchParams.set('state', state);
  log.info('slack install started');
  return { oauth_url: url.toString() };
}

// What oauth.v2.access answers (HTTP 200 either way): `ok` says which. Only the fields we keep are read.
const slackVerdict = z.object({
  ok: z.boolean(),
  error: z
    .string()
    .regex(/^[a-z0-9_.]{1,64}$/)
    .optional()
    .catch('unreadable_error'),
});
const slackGrant = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('bot'),
  bot_user_id: z.string().optional(),
  team: z.object({ id: z.string().min(1), name: z.string().optional() }),
});
type SlackGrant = z.output<typeof slackGrant>;

async function exchangeCode({ config, log }: Pick<AppDeps, 'config' | 'log'>, code: string): Promise<SlackGrant> {
  const { clientId, clientSecret } = slackApp(config);
  let response: Response;
  try {
    response = await fetch(`${config.slack.apiBaseUrl}/oauth.v2.access`, {
      method: 'POST',
      // Slack prefers the client credentials as HTTP Basic auth over form fields.
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code, redirect_uri: redirectUri(config) }).toString(),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    log.warn({ cause }, 'slack oauth.v2.access unreachable');
    throw upstreamFailed('Slack could not be reached to complete the install; start the install again');
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw upstreamFailed(`Slack answered HTTP ${response.status} to the code exchange; start the install again`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  const verdict = slackVerdict.safeParse(body);
  if (!verdict.success)
    throw upstreamFailed('Slack answered the code exchange with something other than a Web API response');
  if (!verdict.data.ok)
    throw upstreamFailed(`Slack refused the code exchange: ${verdict.data.error ?? 'no error code given'}`);
  const grant = slackGrant.safeParse(body);
  // Organisation-wide (Enterprise Grid) installs carry no workspace: alert rules address one workspace.
  if (!grant.success)
    throw upstreamFailed('Slack granted no bot token for a single workspace; install the app into one workspace');
  return grant.data;
}

/**
 * The browser comes back from Slack. An unconfigured server answers 503 before it consumes a state; then the
 * state is consumed before anything else is looked at (so it can never be played twice, even when the query
 * then proves incomplete or the exchange fails: Slack's code is single-use too, so a retry needs a new flow).
 */
export async function completeSlackInstall(deps: AppDeps, query: unknown): Promise<InstallPage> {
  const { db, config } = deps;
  slackApp(config);
  const { state } = parseInput(slackInstallState, query, 'query');
  if (!state) throw invalidState();
  const started = await consumeOauthState({ db, stateHash: sha256(state) });
  if (!started) throw invalidState();
  const installer = await findUser({ db, tenantId: started.tenant_id, userId: started.user_id });
  if (!installer || !hasRole(installer.role, 'admin')) {
    throw invalidState('The user who started this install can no longer install Slack for the tenant');
  }
  const log = deps.log.child({ tenantId: started.tenant_id, userId: started.user_id });
  const outcome = parseInput(slackInstallOutcome, query, 'query');

  if (outcome.error || !outcome.code) {
    log.info({ slackError: outcome.error }, 'slack install cancelled');
    return { status: 400, html: cancelledPage(outcome.error ?? 'unknown') };
  }
  const grant = await exchangeCode({ config, log }, outcome.code);
  await upsertSlackInstallation({
    db,
    installation: {
      id: newId('slack'),
      tenant_id: started.tenant_id,
      team_id: grant.team.id,
      team_name: grant.team.name ?? null,
      bot_user_id: grant.bot_user_id ?? null,
      bot_token_encrypted: encryptSecret(config.secrets.dataEncryptionKey, grant.access_token),
      installed_by: started.user_id,
    },
  });
  log.info({ teamId: grant.team.id }, 'slack workspace installed');
  return { status: 200, html: connectedPage(grant.team.id, grant.team.name ?? grant.team.id) };
}

export async function listSlackWorkspaces({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const rows = await listSlackInstallations({ db, tenantId: caller.tenantId });
  return {
    installations: rows.map((r) => ({
      team_id: r.team_id,
      team_name: r.team_name,
      bot_user_id: r.bot_user_id,
      installed_at: r.created_at.toISOString(),
    })),
  };
}

/** Forgets the workspace's bot token. The app stays in the Slack workspace until removed there. */
export async function removeSlackWorkspace({ db, log }: AppDeps, caller: Caller, teamId: string) {
  if (!(await deleteSlackInstallation({ db, tenantId: caller.tenantId, teamId }))) throw notFound('Slack installation');
  log.info({ teamId }, 'slack workspace removed');
  return { message: `Slack workspace ${teamId} disconnected` };
}

function page(title: string, paragraphs: string[]): string {
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>\n`
  );
}

function connectedPage(teamId: string, teamName: string): string {
  const channel = `{ "type": "slack", "team_id": "${teamId}", "channel": "#alerts" }`;
  return page('Slack connected', [
    `Sentinel is now connected to the Slack workspace <strong>${escapeHtml(teamName)}</strong>.`,
    `Alert rules can post to it with a channel such as <code>${escapeHtml(channel)}</code>.`,
    'You can close this window.',
  ]);
}

function cancelledPage(slackError: string): string {
  return page('Slack install cancelled', [
    `The Slack install was cancelled (Slack reported <code>${escapeHtml(slackError)}</code>); nothing was connected.`,
    'Start the install again from Sentinel to connect a workspace.',
  ]);
}
