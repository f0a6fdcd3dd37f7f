import { GetQueueAttributesCommand, paginateListQueues, SQSClient } from '@aws-sdk/client-sqs';
import type { SqsQueue, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent } from './failures';
import { isDenied, readingOf } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// SQS queues, region by region: ListQueues, then one GetQueueAttributes per queue for its policy and its
// server-side encryption. A queue whose attributes are refused is unread (its policy unknown, never private); a
// queue deleted since it was listed is left out.

const PER_QUEUE_CONCURRENCY = 4;
const PAGE_SIZE = 1000;

interface Slice {
  queues: SqsQueue[];
  unread: Unread[];
}

/** A queue's name and ARN from its URL (https://sqs.REGION.amazonaws.com/ACCOUNT/NAME). */
function queueOf(url: string, region: string, accountId: string): { name: string; arn: string } {
  const [account = accountId, name = url] = new URL(url).pathname.split('/').filter(Boolean);
  return { name, arn: `arn:aws:sqs:${region}:${account}:${name}` };
}

export const sqsQueuesPart = regionalPart({
  part: 'sqsQueues',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const sqs = session.client((config) => new SQSClient(config), region);
    const urls = await foldPages(
      paginateListQueues({ client: sqs, pageSize: PAGE_SIZE }, { MaxResults: PAGE_SIZE }),
      [] as string[],
      (into, page) => {
        into.push(...(page.QueueUrls ?? []));
        return into;
      },
    );
    const unread: Unread[] = [];
    const queues = await mapLimit({
      items: urls,
      limit: PER_QUEUE_CONCURRENCY,
      run: async (url): Promise<SqsQueue | null> => {
        const { name, arn } = queueOf(url, region, session.accountId);
        try {
          const { Attributes: a = {} } = await sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: url,
              AttributeNames: ['Policy', 'KmsMasterKeyId', 'SqsManagedSseEnabled'],
            }),
          );
          return {
            name,
            arn,
            region,
            policy: readingOf(a.Policy, session.accountId),
            encrypted: Boolean(a.KmsMasterKeyId) || a.SqsManagedSseEnabled === 'true',
          };
        } catch (err) {
          if (isAbsent(err, 'QueueDoesNotExist')) return null;
          if (!isDenied(err)) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: err.reason });
          return null;
        }
      },
    });
    return { queues: queues.filter((q): q is SqsQueue => q !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ queues: slices.flatMap((s) => s.queues) }),
});
