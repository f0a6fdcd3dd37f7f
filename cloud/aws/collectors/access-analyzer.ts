import { AccessAnalyzerClient, paginateListAnalyzers } from '@aws-sdk/client-accessanalyzer';
import type { AccessAnalyzerRegion } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// IAM Access Analyzer in every enabled region: its analyzers, of every type (the check tells external-access
// analyzers from the others). An analyzer sees only the resources of its own region.

export const accessAnalyzersPart = regionalPart({
  part: 'accessAnalyzers',
  async read({ session }: ReadContext, region: string): Promise<AccessAnalyzerRegion> {
    const analyzer = session.client((config) => new AccessAnalyzerClient(config), region);
    const analyzers = await foldPages(
      paginateListAnalyzers({ client: analyzer }, {}),
      [] as AccessAnalyzerRegion['analyzers'],
      (into, page) => [
        ...into,
        ...(page.analyzers ?? []).map((a) => ({ name: a.name ?? '', type: a.type ?? '', status: a.status ?? '' })),
      ],
    );
    return { region, analyzers };
  },
  assemble: (slices) => ({ regions: slices }),
});
