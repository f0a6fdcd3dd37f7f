import {
  DescribeDocumentPermissionCommand,
  type DocumentIdentifier,
  GetDocumentCommand,
  paginateListDocuments,
  SSMClient,
} from '@aws-sdk/client-ssm';
import type { SsmDocument, Unread } from '../../../domain/scans/inventory';
import { findInDocument } from '../../../domain/secrets/documents';
import { findInText } from '../../../domain/secrets/detector';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// The SSM documents the account owns (ListDocuments, Owner Self: AWS's and others' shared documents are not the
// account's to fix), region by region. For each: GetDocument for its default version's content, searched for
// secrets at once (only the kind and the path in the document are kept), and DescribeDocumentPermission for whom it
// is shared with (`all`: public). A document AWS refuses is unread; the region's others are judged.

const PER_DOCUMENT_CONCURRENCY = 4;

interface Slice {
  documents: SsmDocument[];
  unread: Unread[];
}

/** The secrets of a document's content: by path for JSON and YAML (asked as JSON), by line for text. */
function secretsOf(content: string) {
  try {
    return findInDocument(JSON.parse(content));
  } catch {
    return findInText(content).map(({ line, kind }) => ({ name: `line ${line}`, kind }));
  }
}

export const ssmDocumentsPart = regionalPart({
  part: 'ssmDocuments',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const ssm = session.client((config) => new SSMClient(config), region);
    const listed = await foldPages(
      paginateListDocuments({ client: ssm }, { Filters: [{ Key: 'Owner', Values: ['Self'] }] }),
      [] as DocumentIdentifier[],
      (into, page) => {
        into.push(...(page.DocumentIdentifiers ?? []).filter((d) => d.Name));
        return into;
      },
    );
    const unread: Unread[] = [];
    const documents = await mapLimit({
      items: listed,
      limit: PER_DOCUMENT_CONCURRENCY,
      run: async (doc): Promise<SsmDocument | null> => {
        const name = doc.Name as string;
        try {
          const structured = doc.DocumentFormat === 'JSON' || doc.DocumentFormat === 'YAML';
          const { Content } = await ssm.send(
            new GetDocumentCommand({ Name: name, DocumentFormat: structured ? 'JSON' : undefined }),
          );
          const { AccountIds = [] } = await ssm.send(
            new DescribeDocumentPermissionCommand({ Name: name, PermissionType: 'Share' }),
          );
          return {
            name,
            region,
            contentSecrets: secretsOf(Content ?? ''),
            public: AccountIds.some((id) => id.toLowerCase() === 'all'),
          };
        } catch (err) {
          if (isAbsent(err, 'InvalidDocument')) return null; // deleted since it was listed
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          unread.push({ kind: 'resource', scope: name, reason: err.reason });
          return null;
        }
      },
    });
    return { documents: documents.filter((d): d is SsmDocument => d !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ documents: slices.flatMap((s) => s.documents) }),
});
