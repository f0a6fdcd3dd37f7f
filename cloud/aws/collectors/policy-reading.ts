import type { PolicyReading } from '../../../domain/scans/inventory';
import { policyExposure } from '../../../domain/policies/resource-policy';
import { parsePolicyDocument } from '../trust-policy';
import { isAbsent, ReadFailure } from './failures';

// How the collectors read a resource's policy (a queue's, a key's, a repository's, ...): what it opens beyond the
// account, judged once by domain/policies/resource-policy.ts. A policy AWS refuses is not read, never taken for no
// policy: the resource's exposure checks then name it unread.

const NO_POLICY: PolicyReading = { read: true, exposure: { public: [], external: [] } };

/** The reading of a policy document as AWS returned it (JSON text, URL-encoded or not); none: no policy. */
export function readingOf(document: string | null | undefined, ownAccount: string): PolicyReading {
  if (!document) return NO_POLICY;
  const exposure = policyExposure(document, ownAccount);
  const parsed = parsePolicyDocument(document);
  return exposure
    ? { read: true, exposure, ...(parsed ? { document: parsed } : {}) }
    : { read: false, reason: 'AWS answered a resource policy that is not a JSON policy document.' };
}

/**
 * Reads a resource's policy with `read`. `noPolicy`: the error code AWS answers for a resource without one
 * (ECR's RepositoryPolicyNotFound); `gone`: the code for a resource deleted since it was listed, which makes the
 * result null (the resource is left out). A refusal is a reading that was not made; other failures throw.
 */
export async function readPolicy(
  read: () => Promise<string | null | undefined>,
  ownAccount: string,
  codes: { noPolicy?: string; gone: string },
): Promise<PolicyReading | null>;
export async function readPolicy(
  read: () => Promise<string | null | undefined>,
  ownAccount: string,
  codes?: { noPolicy?: string },
): Promise<PolicyReading>;
export async function readPolicy(
  read: () => Promise<string | null | undefined>,
  ownAccount: string,
  codes: { noPolicy?: string; gone?: string } = {},
): Promise<PolicyReading | null> {
  try {
    return readingOf(await read(), ownAccount);
  } catch (err) {
    if (codes.noPolicy && isAbsent(err, codes.noPolicy)) return NO_POLICY;
    if (codes.gone && isAbsent(err, codes.gone)) return null;
    if (err instanceof ReadFailure && err.kind === 'denied') return { read: false, reason: err.reason };
    throw err;
  }
}

/** Whether a failure is AWS refusing the call (the resource is then unread). */
export const isDenied = (err: unknown): err is ReadFailure => err instanceof ReadFailure && err.kind === 'denied';
