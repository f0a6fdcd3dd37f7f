import type { Response } from 'express';
import { PUBLIC } from '../openapi/registry';
import { messageBody } from '../../core/schemas/common';
import {
  listSlackInstallationsOutput,
  oauthStartOutput,
  slackInstallOutcome,
  slackInstallState,
} from '../../core/schemas/integrations';
import {
  completeSlackInstall,
  type InstallPage,
  listSlackWorkspaces,
  removeSlackWorkspace,
  startSlackInstall,
} from '../../core/integrations/slack-install';
import { endpoint, respond } from './operation';

// Every path is served under the branded name and the spec's neutral "chat" alias.
const SLACK = '/integrations/slack';
const CHAT = '/integrations/chat';

function sendPage(res: Response, { status, html }: InstallPage): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'",
      // The address holds the one-time code and state: keep it out of caches and Referer headers.
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(html);
}

export const integrationOperations = [
  endpoint({
    operationId: 'completeSlackInstall',
    method: 'get',
    path: '/webhooks/slack/install',
    aliases: ['/webhooks/chat/install'],
    tag: 'Integrations',
    access: PUBLIC,
    summary: "Slack's OAuth callback (opened by the browser)",
    description:
      'The single-use `state` from `oauth-start` is the proof. A missing or bad state is 400 `invalid_oauth_state`; ' +
      'neither `code` nor `error` is 400 `validation_failed`. Other parameters Slack adds are ignored.',
    // The browser arrives from Slack without a bearer token. The service reads the query itself: configuration,
    // then state, then code or error, in that order.
    query: slackInstallState.extend(slackInstallOutcome.shape),
    rawInput: true,
    success: { status: 200, description: 'A page naming the installed workspace', media: 'text/html' },
    otherAnswers: [
      { status: 400, description: 'A page saying the install was cancelled at Slack', media: 'text/html' },
    ],
    errors: ['invalid_oauth_state', 'upstream_failed', 'slack_not_configured'],
    handler: async ({ deps, query }) => {
      const page = await completeSlackInstall(deps, query);
      return respond((res) => sendPage(res, page));
    },
  }),
  endpoint({
    operationId: 'startSlackInstall',
    method: 'get',
    path: `${SLACK}/oauth-start`,
    aliases: [`${CHAT}/oauth-start`],
    tag: 'Integrations',
    access: 'admin',
    summary: 'Start installing the Slack app',
    description:
      'Send the user to `oauth_url`; Slack then calls back on `/webhooks/slack/install`. The state is valid 10 minutes.',
    success: { status: 200, description: 'Where to send the user', schema: oauthStartOutput },
    errors: ['slack_not_configured'],
    handler: ({ deps, caller }) => startSlackInstall(deps, caller),
  }),
  endpoint({
    operationId: 'listSlackWorkspaces',
    method: 'get',
    path: SLACK,
    aliases: [CHAT],
    tag: 'Integrations',
    access: 'viewer',
    summary: "The tenant's installed Slack workspaces, oldest first",
    success: { status: 200, description: 'Every installation (never its token)', schema: listSlackInstallationsOutput },
    errors: [],
    handler: ({ deps, caller }) => listSlackWorkspaces(deps, caller),
  }),
  endpoint({
    operationId: 'removeSlackWorkspace',
    method: 'delete',
    path: `${SLACK}/{team_id}`,
    aliases: [`${CHAT}/{team_id}`],
    tag: 'Integrations',
    access: 'admin',
    summary: 'Forget a Slack workspace and its bot token',
    success: { status: 200, description: 'Removed', schema: messageBody },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => removeSlackWorkspace(deps, caller, params.team_id),
  }),
];
