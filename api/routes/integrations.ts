import { type Response, Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import {
  completeSlackInstall, type InstallPage, listSlackWorkspaces, removeSlackWorkspace, startSlackInstall,
} from '../services/slack-install';

// Every path is served under the branded name and the spec's neutral "chat" alias.
const both = (path: string) => [`/integrations/slack${path}`, `/integrations/chat${path}`];

function sendPage(res: Response, { status, html }: InstallPage): void {
  res.status(status).set({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'",
    // The address holds the one-time code and state: keep it out of caches and Referer headers.
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  }).send(html);
}

export function integrationsRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get(both('/oauth-start'), auth, requireRole('admin'), async (req, res) => {
    res.json(await startSlackInstall(forRequest(deps, req), callerOf(req)));
  });

  // Public: the browser arrives from Slack without a bearer token; the single-use state is the proof. The
  // service reads the query itself: configuration, then state, then code or error, in that order.
  router.get(['/webhooks/slack/install', '/webhooks/chat/install'], async (req, res) => {
    sendPage(res, await completeSlackInstall(forRequest(deps, req), req.query));
  });

  router.get(both(''), auth, async (req, res) => {
    res.json(await listSlackWorkspaces(forRequest(deps, req), callerOf(req)));
  });

  router.delete(both('/:teamId'), auth, requireRole('admin'), async (req, res) => {
    res.json(await removeSlackWorkspace(forRequest(deps, req), callerOf(req), String(req.params.teamId)));
  });

  return router;
}
