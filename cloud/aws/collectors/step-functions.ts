import { DescribeStateMachineCommand, paginateListStateMachines, SFNClient } from '@aws-sdk/client-sfn';
import type { StateMachine, Unread } from '../../../domain/scans/inventory';
import { findInDocument } from '../../../domain/secrets/documents';
import { findInText } from '../../../domain/secrets/detector';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Step Functions state machines, region by region: ListStateMachines, then DescribeStateMachine for each one's
// definition (searched for secrets at once: only the kind and the path in the definition are kept) and its logging
// level. A state machine AWS refuses (its definition may be encrypted with a KMS key Sentinel may not use) is unread.

const PER_MACHINE_CONCURRENCY = 4;

interface Slice {
  machines: StateMachine[];
  unread: Unread[];
}

/** The secrets of a definition: by path when it is JSON (Amazon States Language), by line otherwise. */
function secretsOf(definition: string) {
  try {
    return findInDocument(JSON.parse(definition));
  } catch {
    return findInText(definition).map(({ line, kind }) => ({ name: `line ${line}`, kind }));
  }
}

export const stateMachinesPart = regionalPart({
  part: 'stateMachines',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const sfn = session.client((config) => new SFNClient(config), region);
    const listed = await foldPages(
      paginateListStateMachines({ client: sfn }, {}),
      [] as { name: string; arn: string }[],
      (into, page) => {
        for (const m of page.stateMachines ?? [])
          if (m.name && m.stateMachineArn) into.push({ name: m.name, arn: m.stateMachineArn });
        return into;
      },
    );
    const unread: Unread[] = [];
    const machines = await mapLimit({
      items: listed,
      limit: PER_MACHINE_CONCURRENCY,
      run: async ({ name, arn }): Promise<StateMachine | null> => {
        try {
          const machine = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
          return {
            name,
            arn,
            region,
            definitionSecrets: secretsOf(machine.definition ?? ''),
            logLevel: machine.loggingConfiguration?.level ?? 'OFF',
          };
        } catch (err) {
          if (isAbsent(err, 'StateMachineDoesNotExist')) return null;
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: err.reason });
          return null;
        }
      },
    });
    return { machines: machines.filter((m): m is StateMachine => m !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ machines: slices.flatMap((s) => s.machines) }),
});
