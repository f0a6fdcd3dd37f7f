import { GetPolicyCommand, GetPolicyVersionCommand, IAMClient } from '@aws-sdk/client-iam';
import type { IamAuthorization, ManagedPolicyDocument } from '../../../domain/scans/iam-authorization';
import type { Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent } from './failures';
import { attachedAwsPolicies, authorizationDetails } from './iam';
import { parsed } from './iam-authorization-index';
import { organizationPolicies } from './organization-policies';
import { globalPart, type ReadContext } from './reader';
import type { Session } from './session';

// Every principal's policies as documents, for the attack-path analysis (domain/attack-paths/): the users, groups,
// roles and customer managed policies of GetAccountAuthorizationDetails (one pass with the iamPrincipals part), the
// attached AWS managed policies' default versions (read once with the awsManagedPolicies part), GetPolicy and
// GetPolicyVersion for a policy a principal holds that neither carried (a boundary, a policy attached since), then
// the organization's service and resource control policies (organization-policies.ts).
//
// The pages are asked without AWS managed policies: an emulator answers every one AWS has (over a thousand), and
// only the attached ones decide anything.

const PER_POLICY_CONCURRENCY = 4;

/** A held policy the pages did not carry, by its default version; null when it no longer exists. */
async function policyDocument(iam: IAMClient, arn: string): Promise<ManagedPolicyDocument | null> {
  try {
    const { Policy } = await iam.send(new GetPolicyCommand({ PolicyArn: arn }));
    if (!Policy?.DefaultVersionId) return null;
    const { PolicyVersion } = await iam.send(
      new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: Policy.DefaultVersionId }),
    );
    return { arn, name: Policy.PolicyName ?? arn, document: parsed(PolicyVersion?.Document) };
  } catch (err) {
    if (isAbsent(err, 'NoSuchEntity')) return null;
    throw err;
  }
}

async function missingPolicies(iam: IAMClient, arns: string[]) {
  const unread: Unread[] = [];
  const documents = await mapLimit({
    items: arns,
    limit: PER_POLICY_CONCURRENCY,
    run: async (arn): Promise<ManagedPolicyDocument> => {
      try {
        // A policy deleted since the pages were read is held by nobody now; listed unread, it decides nothing.
        return (await policyDocument(iam, arn)) ?? { arn, name: arn.split('/').pop() ?? arn, document: null };
      } catch (err) {
        const { reason, retryable } = failureOf(err);
        if (retryable) throw err;
        unread.push({ kind: 'resource', scope: arn, reason: `Its default version: ${reason}` });
        return { arn, name: arn.split('/').pop() ?? arn, document: null };
      }
    },
  });
  return { documents, unread };
}

const iamClient = (session: Session) => session.client((config) => new IAMClient(config));

/** The attached AWS managed policies' documents by ARN; none when they could not be listed (then read one by one). */
async function awsDocuments(ctx: ReadContext): Promise<Map<string, ManagedPolicyDocument>> {
  try {
    const policies = await attachedAwsPolicies(ctx);
    return new Map(policies.map((p) => [p.arn, { arn: p.arn, name: p.name, document: parsed(p.document) }]));
  } catch {
    return new Map();
  }
}

export const iamAuthorizationPart = globalPart({
  part: 'iamAuthorization',
  async read(ctx: ReadContext) {
    const { session } = ctx;
    const iam = iamClient(session);
    const { documents: index } = await authorizationDetails(ctx);
    const { users, groups, roles, documents, missing } = index.principals();
    const aws = await awsDocuments(ctx);
    const fromAws = missing.flatMap((arn) => aws.get(arn) ?? []);
    const fetched = await missingPolicies(
      iam,
      missing.filter((arn) => !aws.has(arn)),
    );
    const value: IamAuthorization = {
      users,
      groups,
      roles,
      policies: [...documents, ...fromAws, ...fetched.documents].sort((a, b) => a.arn.localeCompare(b.arn)),
      ...(await organizationPolicies(ctx)),
    };
    return { value, unread: fetched.unread };
  },
});
