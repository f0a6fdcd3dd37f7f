import {
  GetTopicAttributesCommand,
  paginateListSubscriptions,
  paginateListTopics,
  SNSClient,
} from '@aws-sdk/client-sns';
import type { SnsSubscription, SnsTopic, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent } from './failures';
import { isDenied, readingOf } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// SNS topics and subscriptions, region by region: ListTopics, GetTopicAttributes per topic (its access policy and
// KMS key), and ListSubscriptions. A topic whose attributes are refused is unread; one deleted since it was listed
// is left out. Of a subscription only the endpoint's host is kept: an HTTP endpoint's URL may carry credentials.

const PER_TOPIC_CONCURRENCY = 4;

interface Slice {
  topics: SnsTopic[];
  subscriptions: SnsSubscription[];
  unread: Unread[];
}

function hostOf(protocol: string, endpoint: string | undefined): string | null {
  if (!endpoint || !protocol.startsWith('http')) return null;
  try {
    return new URL(endpoint).host;
  } catch {
    return null;
  }
}

export const snsTopicsPart = regionalPart({
  part: 'snsTopics',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const sns = session.client((config) => new SNSClient(config), region);
    const arns = await foldPages(paginateListTopics({ client: sns }, {}), [] as string[], (into, page) => {
      for (const t of page.Topics ?? []) if (t.TopicArn) into.push(t.TopicArn);
      return into;
    });
    const unread: Unread[] = [];
    const topics = await mapLimit({
      items: arns,
      limit: PER_TOPIC_CONCURRENCY,
      run: async (arn): Promise<SnsTopic | null> => {
        try {
          const { Attributes: a = {} } = await sns.send(new GetTopicAttributesCommand({ TopicArn: arn }));
          return {
            name: arn.split(':').pop() ?? arn,
            arn,
            region,
            policy: readingOf(a.Policy, session.accountId),
            encrypted: Boolean(a.KmsMasterKeyId),
          };
        } catch (err) {
          if (isAbsent(err, 'NotFound')) return null;
          if (!isDenied(err)) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: err.reason });
          return null;
        }
      },
    });
    const subscriptions = await foldPages(
      paginateListSubscriptions({ client: sns }, {}),
      [] as SnsSubscription[],
      (into, page) => {
        for (const s of page.Subscriptions ?? []) {
          // A subscription not yet confirmed has no ARN and receives nothing.
          if (!s.SubscriptionArn?.startsWith('arn:') || !s.TopicArn) continue;
          const protocol = s.Protocol ?? 'unknown';
          into.push({
            arn: s.SubscriptionArn,
            topicArn: s.TopicArn,
            region,
            protocol,
            endpointHost: hostOf(protocol, s.Endpoint),
          });
        }
        return into;
      },
    );
    return { topics: topics.filter((t): t is SnsTopic => t !== null), subscriptions, unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({
    topics: slices.flatMap((s) => s.topics),
    subscriptions: slices.flatMap((s) => s.subscriptions),
  }),
});
