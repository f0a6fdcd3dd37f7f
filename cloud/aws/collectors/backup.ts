import {
  BackupClient,
  type BackupPlansListMember,
  type BackupSelectionsListMember,
  GetBackupSelectionCommand,
  paginateListBackupPlans,
  paginateListBackupSelections,
} from '@aws-sdk/client-backup';
import type { BackupSelection, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// AWS Backup's resource assignments, region by region: every backup plan (ListBackupPlans), its selections
// (ListBackupSelections) and each selection's resources (GetBackupSelection: the list names no resource). A plan
// whose selections AWS refuses is unread, so no database is taken as unprotected, nor protected, on its account.

const PER_PLAN_CONCURRENCY = 4;

interface Slice {
  selections: BackupSelection[];
  unread: Unread[];
}

export const backupSelectionsPart = regionalPart({
  part: 'backupSelections',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const backup = session.client((config) => new BackupClient(config), region);
    const plans = await foldPages(
      paginateListBackupPlans({ client: backup }, {}),
      [] as BackupPlansListMember[],
      (into, page) => {
        into.push(...(page.BackupPlansList ?? []).filter((p) => p.BackupPlanId));
        return into;
      },
    );
    const unread: Unread[] = [];
    const perPlan = await mapLimit({
      items: plans,
      limit: PER_PLAN_CONCURRENCY,
      run: async (plan): Promise<BackupSelection[]> => {
        const planId = plan.BackupPlanId as string;
        try {
          const listed = await foldPages(
            paginateListBackupSelections({ client: backup }, { BackupPlanId: planId }),
            [] as BackupSelectionsListMember[],
            (into, page) => {
              into.push(...(page.BackupSelectionsList ?? []).filter((s) => s.SelectionId));
              return into;
            },
          );
          const selections: BackupSelection[] = [];
          for (const s of listed) {
            const { BackupSelection: selection } = await backup.send(
              new GetBackupSelectionCommand({ BackupPlanId: planId, SelectionId: s.SelectionId }),
            );
            selections.push({
              region,
              planId,
              planName: plan.BackupPlanName ?? planId,
              name: selection?.SelectionName ?? s.SelectionName ?? (s.SelectionId as string),
              resources: selection?.Resources ?? [],
              notResources: selection?.NotResources ?? [],
            });
          }
          return selections;
        } catch (err) {
          if (isAbsent(err, 'ResourceNotFoundException')) return []; // deleted since it was listed
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          unread.push({ kind: 'resource', scope: plan.BackupPlanArn ?? planId, reason: err.reason });
          return [];
        }
      },
    });
    return { selections: perPlan.flat(), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ selections: slices.flatMap((s) => s.selections) }),
});
