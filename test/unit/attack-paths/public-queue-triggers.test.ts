import { analyzeAttackPaths } from '../../../domain/attack-paths/analyze';
import { anyoneMaySend } from '../../../domain/attack-paths/queue-triggers';
import type { Inventory } from '../../../domain/scans/inventory';
import { ACCOUNT, cleanInventory, LAMBDA_ARN, outcome, part, unreadBy } from '../../helpers/inventory';

// The public-queue combination over the clean account, whose orders-api function Lambda triggers from the orders
// queue: found when anyone may send to the queue, the mapping is enabled and the function's role reads secrets;
// not found when one of the three falls short; possible when a condition Sentinel cannot decide stands in the way;
// and what was not read (the function's triggers, the queue's policy) named, never taken for nothing there.

const NOW = '2026-12-01T12:00:00.000Z';
const CHECK = 'attack_path.public_queue_function_reads_secrets';
const RULE = 'public_queue_function_reads_secrets';
const QUEUE = `arn:aws:sqs:us-east-1:${ACCOUNT}:orders`;
const ORDERS_ROLE = `arn:aws:iam::${ACCOUNT}:role/orders-api`;
const MAPPING = '6f1c2b3a-0d4e-4f5a-8b9c-0a1b2c3d4e5f';

const document = (...Statement: Record<string, unknown>[]) => ({ Version: '2012-10-17', Statement });
const ANYONE_SENDS = {
  Sid: 'Anyone',
  Effect: 'Allow',
  Principal: '*',
  Action: 'sqs:SendMessage',
  Resource: QUEUE,
};
const READS_SECRETS = { Sid: 'Secrets', Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: '*' };

/** The clean account with the orders queue's policy and the orders-api role's extra statements as given. */
function account(queuePolicy: Record<string, unknown> | null, ...roleStatements: Record<string, unknown>[]): Inventory {
  const inventory = cleanInventory(NOW);
  const queue = part(inventory.sqsQueues).queues.find((q) => q.arn === QUEUE)!;
  queue.policy = {
    read: true,
    // What the public-queue check reads is not what decides here: the document is.
    exposure: { public: [], external: [] },
    ...(queuePolicy ? { document: queuePolicy } : {}),
  };
  if (roleStatements.length > 0)
    part(inventory.iamAuthorization)
      .roles.find((r) => r.arn === ORDERS_ROLE)!
      .inline.push({ name: 'extra', document: document(...roleStatements) });
  return inventory;
}

const pathOf = (inventory: Inventory) => analyzeAttackPaths(inventory).paths.find((p) => p.rule === RULE);
const ordersApi = (inventory: Inventory) =>
  part(inventory.lambdaFunctions).functions.find((f) => f.arn === LAMBDA_ARN)!;

describe('a public queue that triggers a function whose role reads secrets', () => {
  it('is found, with the chain internet → queue → function → role → secrets and the evidence of each step', () => {
    const inventory = account(document(ANYONE_SENDS), READS_SECRETS);
    expect(outcome(CHECK, inventory)).toEqual([`${LAMBDA_ARN}@us-east-1`]);
    const path = pathOf(inventory)!;
    expect(path).toMatchObject({
      kind: 'toxic_combination',
      severity: 'CRITICAL',
      certainty: 'certain',
      source: 'internet',
      target: 'secrets',
      title: 'A public queue triggers a function whose role reads secrets',
    });
    expect(path.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['internet', 'internet'],
      [QUEUE, 'queue'],
      [LAMBDA_ARN, 'function'],
      [ORDERS_ROLE, 'role'],
      ['secrets', 'secret'],
    ]);
    expect(path.edges.map((e) => [e.from, e.to, e.evidence, e.certainty])).toEqual([
      ['internet', QUEUE, [`resource:${QUEUE}#Anyone`], 'certain'],
      [QUEUE, LAMBDA_ARN, [`event source mapping ${MAPPING} (Enabled)`], 'certain'],
      [LAMBDA_ARN, ORDERS_ROLE, [ORDERS_ROLE], 'certain'],
      [ORDERS_ROLE, 'secrets', [`inline:${ORDERS_ROLE}/extra#Secrets`], 'certain'],
    ]);
    expect(analyzeAttackPaths(inventory).status).toBe('complete');
  });

  it('lets any AWS account in as anyone, and NotPrincipal everyone it does not name', () => {
    const anyAccount = account(document({ ...ANYONE_SENDS, Principal: { AWS: '*' } }), READS_SECRETS);
    expect(pathOf(anyAccount)?.certainty).toBe('certain');
    const { Principal: _, ...rest } = ANYONE_SENDS;
    const allButOne = account(
      document({ ...rest, NotPrincipal: { AWS: `arn:aws:iam::${ACCOUNT}:role/app-server` } }),
      READS_SECRETS,
    );
    expect(pathOf(allButOne)?.certainty).toBe('certain');
  });

  it('is not found when the queue is private: no policy, its own account only, or a known source only', () => {
    expect(pathOf(account(null, READS_SECRETS))).toBeUndefined();
    expect(
      pathOf(account(document({ ...ANYONE_SENDS, Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` } }), READS_SECRETS)),
    ).toBeUndefined();
    // The topic a subscription delivers from, as AWS writes it: the public-queue check passes it too.
    const fromTopic = {
      ...ANYONE_SENDS,
      Condition: { ArnEquals: { 'aws:SourceArn': `arn:aws:sns:us-east-1:${ACCOUNT}:orders` } },
    };
    expect(pathOf(account(document(fromTopic), READS_SECRETS))).toBeUndefined();
    // Open, but to another queue only; or to reading, not sending.
    expect(pathOf(account(document({ ...ANYONE_SENDS, Resource: `${QUEUE}-archive` }), READS_SECRETS))).toBeUndefined();
    expect(pathOf(account(document({ ...ANYONE_SENDS, Action: 'sqs:ReceiveMessage' }), READS_SECRETS))).toBeUndefined();
    // An unconditioned Deny of everyone closes what the Allow opens.
    const denied = { Sid: 'NoOne', Effect: 'Deny', Principal: '*', Action: 'sqs:*', Resource: QUEUE };
    expect(pathOf(account(document(ANYONE_SENDS, denied), READS_SECRETS))).toBeUndefined();
  });

  it('is not found when the mapping is disabled, or polls something else than a queue', () => {
    const disabled = account(document(ANYONE_SENDS), READS_SECRETS);
    const fn = ordersApi(disabled);
    if (fn.eventSources.read) fn.eventSources.mappings[0]!.state = 'Disabled';
    expect(outcome(CHECK, disabled)).toBe('pass');
    const stream = account(document(ANYONE_SENDS), READS_SECRETS);
    const streamed = ordersApi(stream);
    if (streamed.eventSources.read)
      streamed.eventSources.mappings[0]!.sourceArn = `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/orders`;
    expect(outcome(CHECK, stream)).toBe('pass');
  });

  it('is not found when the role cannot read secrets, or an explicit Deny keeps it from them', () => {
    expect(outcome(CHECK, account(document(ANYONE_SENDS)))).toBe('pass');
    const deny = { Effect: 'Deny', Action: ['secretsmanager:*', 'ssm:*'], Resource: '*' };
    expect(outcome(CHECK, account(document(ANYONE_SENDS), READS_SECRETS, deny))).toBe('pass');
  });

  it('is possible, never certain, under a condition Sentinel cannot decide', () => {
    const window = { DateLessThan: { 'aws:CurrentTime': '2027-01-01T00:00:00Z' } };
    const conditional = pathOf(account(document({ ...ANYONE_SENDS, Condition: window }), READS_SECRETS))!;
    expect(conditional.certainty).toBe('possible');
    expect(conditional.edges[0]).toMatchObject({ from: 'internet', to: QUEUE, certainty: 'possible' });
    expect(outcome(CHECK, account(document({ ...ANYONE_SENDS, Condition: window }), READS_SECRETS))).toEqual([
      `${LAMBDA_ARN}@us-east-1`,
    ]);
    // A Deny under a condition may not apply: the queue stays possibly open.
    const unlessTls = {
      Effect: 'Deny',
      Principal: '*',
      Action: 'sqs:*',
      Resource: QUEUE,
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    };
    expect(pathOf(account(document(ANYONE_SENDS, unlessTls), READS_SECRETS))?.certainty).toBe('possible');
    // A mapping on its way between enabled and disabled may poll.
    const updating = account(document(ANYONE_SENDS), READS_SECRETS);
    const fn = ordersApi(updating);
    if (fn.eventSources.read) fn.eventSources.mappings[0]!.state = 'Updating';
    expect(pathOf(updating)).toMatchObject({ certainty: 'possible' });
    expect(pathOf(updating)?.edges[1]).toMatchObject({
      certainty: 'possible',
      evidence: [`event source mapping ${MAPPING} (Updating)`],
    });
  });

  it('names the function whose triggers were not read, and finds no path through it', () => {
    const inventory = account(document(ANYONE_SENDS), READS_SECRETS);
    ordersApi(inventory).eventSources = {
      read: false,
      reason: "AWS denied Sentinel's role Lambda ListEventSourceMappings (AccessDeniedException).",
    };
    const analysis = analyzeAttackPaths(inventory);
    expect(analysis.paths.some((p) => p.rule === RULE)).toBe(false);
    expect(analysis.status).toBe('partial');
    expect(analysis.unreadBy.queues).toEqual([
      {
        kind: 'resource',
        scope: LAMBDA_ARN,
        reason:
          "What triggers it could not be read: AWS denied Sentinel's role Lambda ListEventSourceMappings (AccessDeniedException).",
      },
    ]);
    expect(outcome(CHECK, inventory)).toBe('pass');
    expect(unreadBy(CHECK, inventory)).toEqual([LAMBDA_ARN]);
    // The other combinations do not depend on what triggers a function.
    expect(unreadBy('attack_path.public_function_reads_secrets', inventory)).toEqual([]);
    // A function whose role reads no secret could be triggered by anything: no path through it is lost.
    const harmless = account(document(ANYONE_SENDS));
    ordersApi(harmless).eventSources = { read: false, reason: 'denied' };
    expect(analyzeAttackPaths(harmless).unreadBy.queues).toEqual([]);
  });

  it('names a triggering queue whose policy was not read, or that another account owns', () => {
    const unreadPolicy = account(null, READS_SECRETS);
    part(unreadPolicy.sqsQueues).queues[0]!.policy = { read: false, reason: 'AccessDenied (GetQueueAttributes)' };
    expect(outcome(CHECK, unreadPolicy)).toBe('pass');
    expect(unreadBy(CHECK, unreadPolicy)).toEqual([QUEUE]);

    const notListed = account(null, READS_SECRETS);
    notListed.sqsQueues = { status: 'not_evaluated', reason: 'AccessDenied (ListQueues)' };
    expect(analyzeAttackPaths(notListed).unreadBy.queues).toEqual([
      expect.objectContaining({ scope: QUEUE, reason: expect.stringContaining('AccessDenied (ListQueues)') }),
    ]);

    const foreign = `arn:aws:sqs:us-east-1:999988887777:partner-orders`;
    const shared = account(null, READS_SECRETS);
    const fn = ordersApi(shared);
    if (fn.eventSources.read) fn.eventSources.mappings[0]!.sourceArn = foreign;
    expect(analyzeAttackPaths(shared).unreadBy.queues).toEqual([
      expect.objectContaining({ scope: foreign, reason: expect.stringContaining('account 999988887777') }),
    ]);

    // A queue deleted since its mapping was made, in a region read whole: nothing to name.
    const gone = account(null, READS_SECRETS);
    const stale = ordersApi(gone);
    if (stale.eventSources.read) stale.eventSources.mappings[0]!.sourceArn = `${QUEUE}-deleted`;
    expect(analyzeAttackPaths(gone).unreadBy.queues).toEqual([]);
  });
});

describe('whether anyone may send to a queue', () => {
  it('cites the statement that opens it, and nothing for a queue without a policy', () => {
    expect(anyoneMaySend(QUEUE, document({ Effect: 'Allow', Principal: '*', Action: 'sqs:*' }))).toEqual({
      decision: 'allowed',
      allowedBy: [{ policy: `resource:${QUEUE}`, index: 0 }],
      deniedBy: [],
      undecided: [],
    });
    expect(anyoneMaySend(QUEUE, undefined).decision).toBe('denied');
  });

  it("weighs the account's resource control policies: one that denies sending closes the queue, the default does not", () => {
    const full = {
      id: 'p-full',
      name: 'RCPFullAWSAccess',
      document: document({ Effect: 'Allow', Principal: '*', Action: '*', Resource: '*' }),
    };
    const closes = {
      id: 'p-closed',
      name: 'NoOutsideSenders',
      document: document({ Sid: 'NoSend', Effect: 'Deny', Principal: '*', Action: 'sqs:SendMessage', Resource: '*' }),
    };
    const withRcps = (...policies: (typeof full)[]) => {
      const inventory = account(document(ANYONE_SENDS), READS_SECRETS);
      part(inventory.iamAuthorization).resourceControlPolicies = {
        read: true,
        levels: [{ target: 'r-root', policies }],
      };
      return inventory;
    };
    expect(pathOf(withRcps(full))?.certainty).toBe('certain');
    expect(pathOf(withRcps(full, closes))).toBeUndefined();
    expect(outcome(CHECK, withRcps(full, closes))).toBe('pass');
    const denied = anyoneMaySend(QUEUE, document(ANYONE_SENDS), [
      [full, closes].map((p) => ({ policy: `rcp:${p.id}`, document: p.document })),
    ]);
    expect(denied).toMatchObject({ decision: 'denied', deniedBy: [{ policy: 'rcp:p-closed', sid: 'NoSend' }] });
  });
});
