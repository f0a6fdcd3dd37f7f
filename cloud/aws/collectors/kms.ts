import {
  DescribeKeyCommand,
  GetKeyPolicyCommand,
  GetKeyRotationStatusCommand,
  KMSClient,
  paginateListKeys,
} from '@aws-sdk/client-kms';
import type { KmsKey, KmsKeyPolicy, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { readPolicy } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// KMS keys, region by region: ListKeys, then DescribeKey per key, and the rotation status of the keys whose
// rotation the customer controls (enabled, customer managed, SYMMETRIC_DEFAULT, key material from KMS). A key
// policy can deny Sentinel a key even though its IAM policies allow KMS reads: that key is unread, the region's
// other keys are evaluated. A key deleted or disabled while the collection runs is no longer of interest. The key
// policies' part below lists and describes the same keys: each list and each description is made once a collection
// attempt for both (ReadContext.shared), so a refused DescribeKey leaves the key unread in both.

const PER_KEY_CONCURRENCY = 4;

interface Slice {
  keys: KmsKey[];
  unread: Unread[];
}

/** What a key that went away (or out of the Enabled state) since ListKeys answers. */
const gone = (err: unknown) => isAbsent(err, 'NotFound') || isAbsent(err, 'KMSInvalidState');
const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

/** Every key of the region, by id and ARN (ListKeys), listed once for both parts. */
const listKeys = ({ shared }: ReadContext, kms: KMSClient, region: string) =>
  shared(`kms:ListKeys@${region}`, () =>
    foldPages(paginateListKeys({ client: kms }, {}), [] as { id: string; arn: string }[], (into, page) => {
      for (const k of page.Keys ?? []) if (k.KeyId) into.push({ id: k.KeyId, arn: k.KeyArn ?? k.KeyId });
      return into;
    }),
  );

/** A key's metadata (DescribeKey), described once for both parts: its failure is each part's to judge. */
const describeKey = ({ shared }: ReadContext, kms: KMSClient, region: string, id: string) =>
  shared(
    `kms:DescribeKey@${region}/${id}`,
    async () => (await kms.send(new DescribeKeyCommand({ KeyId: id }))).KeyMetadata,
  );

export const kmsKeysPart = regionalPart({
  part: 'kmsKeys',
  async read(ctx: ReadContext, region: string): Promise<Slice> {
    const { session } = ctx;
    const kms = session.client((config) => new KMSClient(config), region);
    const listed = await listKeys(ctx, kms, region);
    const unread: Unread[] = [];
    const keys = await mapLimit({
      items: listed,
      limit: PER_KEY_CONCURRENCY,
      run: async ({ id, arn }): Promise<KmsKey | null> => {
        try {
          const key = await describeKey(ctx, kms, region, id);
          const rotatable =
            key?.KeyManager === 'CUSTOMER' &&
            key.KeyState === 'Enabled' &&
            key.KeySpec === 'SYMMETRIC_DEFAULT' &&
            key.Origin === 'AWS_KMS';
          if (!rotatable) return null;
          const { KeyRotationEnabled } = await kms.send(new GetKeyRotationStatusCommand({ KeyId: id }));
          return { id, arn, region, rotationEnabled: KeyRotationEnabled ?? false };
        } catch (err) {
          if (gone(err)) return null;
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { keys: keys.filter((k): k is KmsKey => k !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ keys: slices.flatMap((s) => s.keys) }),
});

// The customer managed keys' state and key policy, region by region (a part of its own, so the rotation part keeps
// its shape): ListKeys and DescribeKey per key (the part above's, made once for both), and GetKeyPolicy per key. A
// key scheduled for deletion is kept (that is what one check looks for); a key DescribeKey is refused for is unread;
// a key policy refused leaves the key's exposure unread. AWS managed keys are left out: their policies are AWS's.

interface PolicySlice {
  keys: KmsKeyPolicy[];
  unread: Unread[];
}

export const kmsKeyPoliciesPart = regionalPart({
  part: 'kmsKeyPolicies',
  async read(ctx: ReadContext, region: string): Promise<PolicySlice> {
    const { session } = ctx;
    const kms = session.client((config) => new KMSClient(config), region);
    const listed = await listKeys(ctx, kms, region);
    const unread: Unread[] = [];
    const keys = await mapLimit({
      items: listed,
      limit: PER_KEY_CONCURRENCY,
      run: async ({ id, arn }): Promise<KmsKeyPolicy | null> => {
        try {
          const key = await describeKey(ctx, kms, region, id);
          if (key?.KeyManager !== 'CUSTOMER') return null;
          const policy = await readPolicy(
            async () => (await kms.send(new GetKeyPolicyCommand({ KeyId: id, PolicyName: 'default' }))).Policy,
            session.accountId,
            { gone: 'NotFound' },
          );
          if (!policy) return null;
          return {
            id,
            arn,
            region,
            state: key.KeyState ?? 'Unknown',
            deletionDate: key.DeletionDate?.toISOString() ?? null,
            policy,
          };
        } catch (err) {
          if (isAbsent(err, 'NotFound')) return null;
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { keys: keys.filter((k): k is KmsKeyPolicy => k !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ keys: slices.flatMap((s) => s.keys) }),
});
