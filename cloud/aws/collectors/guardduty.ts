import {
  GetDetectorCommand,
  GetFindingsCommand,
  GuardDutyClient,
  paginateListDetectors,
  paginateListFindings,
} from '@aws-sdk/client-guardduty';
import type { GuardDutyRegion } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { foldPages, type ReadContext, regionalPart } from './reader';

// GuardDuty in every enabled region: whether a detector is on, its protection plans (GetDetector's Features), and
// its open high-severity findings about this account. A delegated administrator's detector also holds its member accounts' findings; those belong to the
// members (who are scanned on their own), so they are filtered out, by the criterion and again on the answer.

const HIGH_SEVERITY = 7;
const FINDINGS_PER_GET = 50; // GetFindings' maximum

export const guarddutyPart = regionalPart({
  part: 'guardduty',
  async read({ session }: ReadContext, region: string): Promise<GuardDutyRegion> {
    const guardduty = session.client((config) => new GuardDutyClient(config), region);
    const detectorIds = await foldPages(
      paginateListDetectors({ client: guardduty }, {}),
      [] as string[],
      (into, page) => [...into, ...(page.DetectorIds ?? [])],
    );
    // A region has at most one detector; a suspended one keeps its findings, which still describe the account.
    const detectors = await settleAll(
      detectorIds.map(async (id) => {
        const [detector, findingIds] = await settleAll([
          guardduty.send(new GetDetectorCommand({ DetectorId: id })),
          foldPages(
            paginateListFindings(
              { client: guardduty },
              {
                DetectorId: id,
                FindingCriteria: {
                  Criterion: {
                    severity: { GreaterThanOrEqual: HIGH_SEVERITY },
                    // Archived findings are the ones the customer has dismissed.
                    'service.archived': { Equals: ['false'] },
                    accountId: { Equals: [session.accountId] },
                  },
                },
              },
            ),
            [] as string[],
            (into, page) => [...into, ...(page.FindingIds ?? [])],
          ),
        ]);
        const findings = [];
        for (let i = 0; i < findingIds.length; i += FINDINGS_PER_GET) {
          const { Findings = [] } = await guardduty.send(
            new GetFindingsCommand({ DetectorId: id, FindingIds: findingIds.slice(i, i + FINDINGS_PER_GET) }),
          );
          for (const f of Findings) {
            if (f.AccountId === undefined || f.AccountId === session.accountId) {
              findings.push({ id: f.Id ?? '', type: f.Type ?? '', severity: f.Severity ?? 0, title: f.Title ?? '' });
            }
          }
        }
        const features = Object.fromEntries(
          (detector.Features ?? []).flatMap((f) => (f.Name && f.Status ? [[f.Name, f.Status]] : [])),
        );
        return { enabled: detector.Status === 'ENABLED', findings, features };
      }),
    );
    return {
      region,
      detectorEnabled: detectors.some((d) => d.enabled),
      highSeverityFindings: detectors.flatMap((d) => d.findings),
      features: Object.assign({}, ...detectors.map((d) => d.features)) as Record<string, string>,
    };
  },
  assemble: (slices) => ({ regions: slices }),
});
