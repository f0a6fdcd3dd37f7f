import { parseJsonWithin } from '../json-budget';
import { CLOUDTRAIL_API_CALL, CONSOLE_SIGN_IN } from './forwarding-rules';
import { asArray, asObject, asString, pathOf } from './normalize';
import type { AccountEvent } from './types';

// Reading CloudTrail records as EventBridge delivers them: what every detection of an API call needs (did the call
// succeed, what did it ask for, who made it), in one place.

export type Detail = Record<string, unknown>;

/** A failed call changed nothing: CloudTrail records it with an `errorCode` (AccessDenied, ...). */
export const failed = (detail: Detail) =>
  detail.errorCode !== undefined && detail.errorCode !== null && detail.errorCode !== '';

/** The CloudTrail record of a successful call to one of `names` on `eventSource`; null for any other event. */
export function successfulCall(event: AccountEvent, eventSource: string, names: readonly string[]): Detail | null {
  const { detail } = event;
  if (event.detailType !== CLOUDTRAIL_API_CALL || detail.eventSource !== eventSource) return null;
  if (event.eventName === null || !names.includes(event.eventName) || failed(detail)) return null;
  return detail;
}

/** The CloudTrail record of a successful console sign-in; null for any other event. */
export function successfulSignIn(event: AccountEvent): Detail | null {
  const { detail } = event;
  if (event.detailType !== CONSOLE_SIGN_IN || event.eventName !== 'ConsoleLogin' || failed(detail)) return null;
  return pathOf(detail, 'responseElements', 'ConsoleLogin') === 'Success' ? detail : null;
}

export const identityType = (detail: Detail) => pathOf(detail, 'userIdentity', 'type');
export const params = (detail: Detail): Detail => asObject(detail.requestParameters) ?? {};
export const str = (value: unknown, ...path: string[]) => asString(pathOf(value, ...path));

/** A string or a list of strings, as IAM policies and S3 headers write them. */
export const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : asArray(value).filter((v) => typeof v === 'string');
/** A single object or a list of them, as JSON converted from XML (S3 ACL grants) or policies write them. */
export const objects = (value: unknown): Detail[] =>
  (Array.isArray(value) ? value : [value]).flatMap((v) => {
    const object = asObject(v);
    return object ? [object] : [];
  });

/**
 * A policy document as CloudTrail logs it: an object, a JSON string, or (for IAM's query API) a URL-encoded
 * JSON string. Null when it is none of them.
 */
export function parsePolicy(value: unknown): Detail | null {
  if (typeof value !== 'string') return asObject(value);
  for (const decode of [(s: string) => s, (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'))]) {
    let text: string;
    try {
      text = decode(value);
    } catch {
      continue; // not this encoding: try the next one
    }
    // Within the depth budget of any JSON from outside: the comparisons below walk it by recursion.
    const parsed = parseJsonWithin(text);
    const policy = parsed.ok ? asObject(parsed.value) : null;
    if (policy) return policy;
  }
  return null;
}

export const statements = (policy: Detail | null): Detail[] => objects(policy?.Statement);
