import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { connectAccountInput } from '../schemas/accounts';
import { acceptSignalInput, listSignalsQuery, scoreHistoryQuery } from '../schemas/signals';
import { accountChecks } from '../services/checks';
import {
  acceptSignal, accountRecoveryChecklist, accountScoreHistory, listAccountSignals, undoSignalAcceptance,
} from '../services/signals';
import {
  connectAccount, disconnectAccount, getAccount, listTenantAccounts, requestScan, verifyAccount,
} from '../services/accounts';
import { parseInput } from '../validation';

export function accountsRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.post('/accounts', auth, requireRole('member'), async (req, res) => {
    res.status(201).json(await connectAccount(forRequest(deps, req), callerOf(req), parseInput(connectAccountInput, req.body)));
  });

  router.get('/accounts', auth, async (req, res) => {
    res.json(await listTenantAccounts(forRequest(deps, req), callerOf(req)));
  });

  router.get('/accounts/:accountId', auth, async (req, res) => {
    res.json(await getAccount(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  router.post('/accounts/:accountId/verify', auth, requireRole('member'), async (req, res) => {
    res.json(await verifyAccount(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  router.post('/accounts/:accountId/scan', auth, requireRole('member'), async (req, res) => {
    res.status(202).json(await requestScan(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  router.get('/accounts/:accountId/signals', auth, async (req, res) => {
    const query = parseInput(listSignalsQuery, req.query, 'query');
    res.json(await listAccountSignals(forRequest(deps, req), callerOf(req), String(req.params.accountId), query));
  });

  router.post('/accounts/:accountId/signals/:signalId/accept', auth, requireRole('member'), async (req, res) => {
    const input = parseInput(acceptSignalInput, req.body);
    res.json(await acceptSignal(forRequest(deps, req), callerOf(req), String(req.params.accountId), String(req.params.signalId), input));
  });

  router.delete('/accounts/:accountId/signals/:signalId/accept', auth, requireRole('member'), async (req, res) => {
    res.json(await undoSignalAcceptance(forRequest(deps, req), callerOf(req), String(req.params.accountId), String(req.params.signalId)));
  });

  router.get('/accounts/:accountId/checks', auth, async (req, res) => {
    res.json(await accountChecks(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  router.get('/accounts/:accountId/score-history', auth, async (req, res) => {
    const { days } = parseInput(scoreHistoryQuery, req.query, 'query');
    res.json(await accountScoreHistory(forRequest(deps, req), callerOf(req), String(req.params.accountId), days));
  });

  router.get('/accounts/:accountId/recovery-checklist', auth, async (req, res) => {
    res.json(await accountRecoveryChecklist(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  router.delete('/accounts/:accountId', auth, requireRole('member'), async (req, res) => {
    res.json(await disconnectAccount(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  return router;
}
