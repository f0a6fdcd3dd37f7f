// What counts as administrator access, for the scan's IAM collector (cloud/aws/collectors/iam-policies.ts) and the
// event detection of a grant (domain/events/detections.ts) alike. A policy statement is administrator-equivalent
// when it allows, on Resource `*`:
// - every action (`*`, `*:*`);
// - every IAM action (`iam:*`): with it an identity grants itself anything else;
// - everything but a list (`NotAction`) that does not take IAM out (PowerUserAccess takes out `iam:*`, so it is
//   not; a NotAction of `s3:DeleteBucket` alone leaves IAM, hence everything, in reach).
// Of AWS's managed policies, AdministratorAccess and IAMFullAccess. Deny statements, conditions and permissions
// boundaries are not weighed: an identity granted that much is reported as such.

export const AWS_ADMIN_POLICIES: ReadonlySet<string> = new Set(['AdministratorAccess', 'IAMFullAccess']);
const AWS_MANAGED = /^arn:aws[\w-]*:iam::aws:policy\/(?:.*\/)?([^/]+)$/;
const EVERYTHING = new Set(['*', '*:*']);
const ALL_OF_IAM = new Set([...EVERYTHING, 'iam:*']);

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const lower = (v: unknown[]) => v.filter((a): a is string => typeof a === 'string').map((a) => a.toLowerCase());
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The name of an AWS managed policy (`arn:aws:iam::aws:policy/[path/]Name`), or undefined for a customer one. */
export const awsManagedName = (arn: string | undefined): string | undefined => AWS_MANAGED.exec(arn ?? '')?.[1];

/** Whether a parsed policy document (its `Statement`: one or a list) grants administrator access. */
export function documentGrantsAdministrator(document: unknown): boolean {
  return list(isObject(document) ? document.Statement : undefined)
    .filter(isObject)
    .some((s) => {
      if (s.Effect !== 'Allow' || !list(s.Resource).includes('*')) return false;
      if (s.NotAction !== undefined) return !lower(list(s.NotAction)).some((a) => ALL_OF_IAM.has(a));
      return lower(list(s.Action)).some((a) => ALL_OF_IAM.has(a));
    });
}

/**
 * Whether a parsed policy document allows full "*:*" administrative privileges as CIS 2.14 words it: a statement
 * with Effect Allow, Action `*` (or `*:*`) and Resource `*`. Narrower grants that amount to administrator access
 * (`iam:*`, a NotAction) are the administrator checks' concern, not this control's.
 */
export function documentAllowsEverything(document: unknown): boolean {
  return list(isObject(document) ? document.Statement : undefined)
    .filter(isObject)
    .some(
      (s) =>
        s.Effect === 'Allow' && list(s.Resource).includes('*') && lower(list(s.Action)).some((a) => EVERYTHING.has(a)),
    );
}
