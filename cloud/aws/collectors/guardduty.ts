import {
  GetDetectorCommand, GetFindingsCommand, GuardDutyClient, paginateListDetectors, paginateListFindings,
} from '@aws-sdk/client-guardduty';
import type { Collected, GuardDutyRegion } from '../../../domain/inventory';
import { mapLimit, REGION_CONCURRENCY, settleAll } from './concurrency';
import { allPages } from './pages';
import { readPart } from './refusals';
import type { Session } from './session';

const HIGH_SEVERITY = 7;
const FINDINGS_PER_GET = 50; // GetFindings' maximum

async function readRegion(session: Session, region: string): Promise<GuardDutyRegion> {
  const guardduty = session.client((config) => new GuardDutyClient(config), region);
  const detectorIds = (await allPages(paginateListDetectors({ client: guardduty }, {})))
    .flatMap((page) => page.DetectorIds ?? []);
  // A region has at most one detector; a suspended one keeps its findings, which still describe the account.
  const detectors = await settleAll(detectorIds.map(async (id) => {
    const [detector, findingPages] = await settleAll([
      guardduty.send(new GetDetectorCommand({ DetectorId: id })),
      allPages(paginateListFindings({ client: guardduty }, {
        DetectorId: id,
        // Archived findings are the ones the customer has dismissed.
        FindingCriteria: { Criterion: { severity: { GreaterThanOrEqual: HIGH_SEVERITY }, 'service.archived': { Equals: ['false'] } } },
      })),
    ]);
    const findingIds = findingPages.flatMap((page) => page.FindingIds ?? []);
    const batches = Array.from({ length: Math.ceil(findingIds.length / FINDINGS_PER_GET) },
      (_, i) => findingIds.slice(i * FINDINGS_PER_GET, (i + 1) * FINDINGS_PER_GET));
    const found = await mapLimit({
      items: batches, limit: 1, run: (ids) => guardduty.send(new GetFindingsCommand({ DetectorId: id, FindingIds: ids })),
    });
    return {
      enabled: detector.Status === 'ENABLED',
      findings: found.flatMap((answer) => answer.Findings ?? []).map((f) => ({
        id: f.Id ?? '', type: f.Type ?? '', severity: f.Severity ?? 0, title: f.Title ?? '',
      })),
    };
  }));
  return {
    region,
    detectorEnabled: detectors.some((d) => d.enabled),
    highSeverityFindings: detectors.flatMap((d) => d.findings),
  };
}

export function collectGuardDuty({ session, regions }: { session: Session; regions: string[] }): Promise<Collected<{ regions: GuardDutyRegion[] }>> {
  return readPart(async () => ({
    regions: await mapLimit({ items: regions, limit: REGION_CONCURRENCY, run: (region) => readRegion(session, region) }),
  }));
}
