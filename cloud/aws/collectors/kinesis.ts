import { DescribeStreamSummaryCommand, KinesisClient, paginateListStreams } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { KinesisStream } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Kinesis data streams, region by region: ListStreams, then DescribeStreamSummary per stream for its encryption.
// A stream whose summary is refused is kept with `encrypted: null` (unread); one deleted meanwhile is dropped.
// The Kinesis client speaks HTTP/2 by default, for SubscribeToShard's event stream; these calls need none of it,
// and HTTP/1.1 reaches every endpoint the other clients reach (a proxy, a regional endpoint override).

const PER_STREAM_CONCURRENCY = 4;

export const kinesisStreamsPart = regionalPart({
  part: 'kinesisStreams',
  async read({ session }: ReadContext, region: string): Promise<KinesisStream[]> {
    const kinesis = session.client(
      (config) => new KinesisClient({ ...config, requestHandler: new NodeHttpHandler(config.requestHandler) }),
      region,
    );
    const listed = await foldPages(
      paginateListStreams({ client: kinesis }, {}),
      [] as { name: string; arn: string }[],
      (into, page) => {
        for (const s of page.StreamSummaries ?? [])
          if (s.StreamName) into.push({ name: s.StreamName, arn: s.StreamARN ?? s.StreamName });
        return into;
      },
    );
    const streams = await mapLimit({
      items: listed,
      limit: PER_STREAM_CONCURRENCY,
      run: async ({ name, arn }): Promise<KinesisStream | null> => {
        try {
          const { StreamDescriptionSummary: summary } = await kinesis.send(
            new DescribeStreamSummaryCommand({ StreamName: name }),
          );
          return { name, arn, region, encrypted: summary?.EncryptionType === 'KMS' };
        } catch (err) {
          if (isAbsent(err, 'ResourceNotFound')) return null;
          if (err instanceof ReadFailure && err.kind === 'denied') return { name, arn, region, encrypted: null };
          throw err;
        }
      },
    });
    return streams.filter((s): s is KinesisStream => s !== null);
  },
  assemble: (slices) => ({ streams: slices.flat() }),
});
