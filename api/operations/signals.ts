import { accountChecksOutput } from '../../core/schemas/checks';
import {
  acceptSignalInput,
  listSignalsOutput,
  listSignalsQuery,
  recoveryChecklistOutput,
  scoreHistoryOutput,
  scoreHistoryQuery,
  searchSignalsOutput,
  searchSignalsQuery,
  signal,
} from '../../core/schemas/signals';
import { accountChecks } from '../../core/accounts/checks';
import {
  acceptSignal,
  accountRecoveryChecklist,
  accountScoreHistory,
  listAccountSignals,
  searchTenantSignals,
  undoSignalAcceptance,
} from '../../core/signals/signals';
import { ACCOUNT } from './accounts';
import { endpoint } from './operation';

export const signalOperations = [
  endpoint({
    operationId: 'searchSignals',
    method: 'get',
    path: '/signals',
    tag: 'Signals',
    access: 'viewer',
    summary: "The signals of all the tenant's accounts, newest first",
    description:
      "The filters of an account's signals, plus one account (`aws_account_id`, or its alias `cloud_account_id`) " +
      "or the accounts with a `tag`; disconnected accounts' signals are included, as their own lists keep them. Each " +
      'signal names its account. An account or tag that matches nothing is an empty page. `next_token` is the opaque ' +
      'cursor of the previous page. Unknown query parameters are 400.',
    query: searchSignalsQuery,
    success: { status: 200, description: 'One page of signals', schema: searchSignalsOutput },
    errors: ['invalid_cursor'],
    handler: ({ deps, caller, query }) => searchTenantSignals(deps, caller, query),
  }),
  endpoint({
    operationId: 'listSignals',
    method: 'get',
    path: `${ACCOUNT}/signals`,
    tag: 'Signals',
    access: 'viewer',
    summary: "The account's signals (findings), newest first",
    description:
      'Open and resolved together unless `status` says otherwise. `next_token` is the opaque cursor of the ' +
      'previous page. Unknown query parameters are 400.',
    query: listSignalsQuery,
    success: { status: 200, description: 'One page of signals', schema: listSignalsOutput },
    errors: ['not_found', 'invalid_cursor'],
    handler: ({ deps, caller, params, query }) => listAccountSignals(deps, caller, params.account_id, query),
  }),
  endpoint({
    operationId: 'acceptSignal',
    method: 'post',
    path: `${ACCOUNT}/signals/{signal_id}/accept`,
    tag: 'Signals',
    access: 'member',
    summary: "Accept a signal's risk",
    description:
      'For a risk that is meant to be there (a break-glass admin role, a GPU fleet that is meant to run). The signal ' +
      'stays listed, with `accepted`; it counts in no score (the account is re-scored at once) and fires no alert until the ' +
      'acceptance is undone or expires. Accepting an accepted signal replaces its acceptance. Every acceptance is kept and ' +
      'exported. A resolved signal is 409. By default the acceptance names this signal alone: the next occurrence of ' +
      'its detection (another root sign-in, another access key) opens a signal of its own and alerts. For an event ' +
      "signal of an occurrence detection, `scope` `principal` (this detection by the signal's principal) or `detection` " +
      '(by anyone), with `expires_at`, also accepts the later occurrences it covers as they come: they are stored, ' +
      'accepted, and fire no alert, until it expires or is undone on this signal. A scope on any other signal is 400.',
    body: acceptSignalInput,
    success: { status: 200, description: 'The signal', schema: signal },
    errors: ['not_found', 'invalid_state'],
    handler: ({ deps, caller, params, body }) => acceptSignal(deps, caller, params.account_id, params.signal_id, body),
  }),
  endpoint({
    operationId: 'undoSignalAcceptance',
    method: 'delete',
    path: `${ACCOUNT}/signals/{signal_id}/accept`,
    tag: 'Signals',
    access: 'member',
    summary: "Undo a signal's acceptance",
    description:
      'The signal counts again (the account is re-scored at once). Idempotent: a signal without an acceptance in ' +
      'force is answered as it is. Undone on the signal a scoped acceptance was made on, it ends the scope: later ' +
      'occurrences alert again, and the signals it accepted count again. Undone on a signal a scope accepted, it ends ' +
      "that signal's acceptance alone.",
    success: { status: 200, description: 'The signal', schema: signal },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => undoSignalAcceptance(deps, caller, params.account_id, params.signal_id),
  }),
  endpoint({
    operationId: 'listChecks',
    method: 'get',
    path: `${ACCOUNT}/checks`,
    tag: 'Signals',
    access: 'viewer',
    summary: "Every check and its outcome in the latest scan: the account's coverage",
    description:
      'One entry per check of the catalogue: `passed`, `failed` (with the number of failing resources) or ' +
      '`not_evaluated` with the reason, and the regions or resources it could not read. Before the first scan every check ' +
      'is `not_evaluated`.',
    success: { status: 200, description: 'The checks', schema: accountChecksOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => accountChecks(deps, caller, params.account_id),
  }),
  endpoint({
    operationId: 'getScoreHistory',
    method: 'get',
    path: `${ACCOUNT}/score-history`,
    tag: 'Signals',
    access: 'viewer',
    summary: 'The daily Security Risk Score, newest first',
    description: "One point per UTC day with a scan: the score of that day's last scan.",
    query: scoreHistoryQuery,
    success: { status: 200, description: 'The history', schema: scoreHistoryOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params, query }) => accountScoreHistory(deps, caller, params.account_id, query.days),
  }),
  endpoint({
    operationId: 'getRecoveryChecklist',
    method: 'get',
    path: `${ACCOUNT}/recovery-checklist`,
    tag: 'Signals',
    access: 'viewer',
    summary: 'What to fix first',
    description: 'One step per failing check, most urgent first; a healthy account gets a baseline hardening list.',
    success: { status: 200, description: 'The checklist', schema: recoveryChecklistOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => accountRecoveryChecklist(deps, caller, params.account_id),
  }),
];
