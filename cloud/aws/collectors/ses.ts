import { GetEmailIdentityPoliciesCommand, paginateListEmailIdentities, SESv2Client } from '@aws-sdk/client-sesv2';
import type { PolicyHolder, PolicyReading } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent } from './failures';
import { isDenied, readingOf } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// SES identities (domains and email addresses), region by region through SES v2: ListEmailIdentities, then
// GetEmailIdentityPolicies per identity. An identity may have several sending authorization policies: their
// readings are merged, and one that cannot be read leaves the identity's exposure unread. An identity deleted since
// it was listed is left out.

const PER_IDENTITY_CONCURRENCY = 4;
const PAGE_SIZE = 1000;

/** One reading for all of an identity's policies. */
function merged(policies: Record<string, string>, ownAccount: string): PolicyReading {
  const reading: PolicyReading = { read: true, exposure: { public: [], external: [] } };
  for (const document of Object.values(policies)) {
    const one = readingOf(document, ownAccount);
    if (!one.read) return one;
    reading.exposure.public.push(...one.exposure.public);
    reading.exposure.external.push(...one.exposure.external);
  }
  return reading;
}

export const sesIdentitiesPart = regionalPart({
  part: 'sesIdentities',
  async read({ session }: ReadContext, region: string): Promise<PolicyHolder[]> {
    const ses = session.client((config) => new SESv2Client(config), region);
    const names = await foldPages(
      paginateListEmailIdentities({ client: ses, pageSize: PAGE_SIZE }, {}),
      [] as string[],
      (into, page) => {
        for (const i of page.EmailIdentities ?? []) if (i.IdentityName) into.push(i.IdentityName);
        return into;
      },
    );
    const identities = await mapLimit({
      items: names,
      limit: PER_IDENTITY_CONCURRENCY,
      run: async (name): Promise<PolicyHolder | null> => {
        const arn = `arn:aws:ses:${region}:${session.accountId}:identity/${name}`;
        try {
          const { Policies = {} } = await ses.send(new GetEmailIdentityPoliciesCommand({ EmailIdentity: name }));
          return { name, arn, region, policy: merged(Policies, session.accountId) };
        } catch (err) {
          if (isAbsent(err, 'NotFound')) return null;
          if (!isDenied(err)) throw err;
          return { name, arn, region, policy: { read: false, reason: err.reason } };
        }
      },
    });
    return identities.filter((i): i is PolicyHolder => i !== null);
  },
  assemble: (slices) => ({ identities: slices.flat() }),
});
