import { asArray, asObject, asString } from '../normalize';
import type { AccountEvent, DetectionDescription, EventFinding } from '../types';
import { sigmaDetectionId } from './ids';
import { eventFuel, type SigmaRule } from './rule';

// A tenant's Sigma rule among the detections: named by its id (./ids.ts), described by the rule itself (its title,
// its level's severity, its description), and run on the CloudTrail records among the events.

/** A tenant's enabled rule, compiled, as the ingestion path runs it. */
export interface TenantSigmaDetection {
  detection: DetectionDescription;
  /** The name the tenant gave it. */
  name: string;
  rule: SigmaRule;
}

/** Where the specification's own documentation is, for a rule that names no reference of its own. */
const SIGMA_DOCS = 'https://sigmahq.io/docs/basics/rules.html';

export function tenantSigmaDetection(ruleId: string, name: string, rule: SigmaRule): TenantSigmaDetection {
  return {
    name,
    rule,
    detection: {
      id: sigmaDetectionId(ruleId),
      scenario: 'threat',
      severity: rule.severity,
      title: rule.title,
      description: rule.description ?? `An event matched the tenant's Sigma rule '${name}'.`,
      remediation: `Review the event against what the rule '${name}' looks for; if it is expected, accept the risk or refine the rule.`,
      docsUrl: rule.references[0] ?? SIGMA_DOCS,
      mitre: [],
      group: null,
    },
  };
}

/** CloudTrail's records, whatever EventBridge calls them: API calls, console sign-ins, service events. */
const CLOUDTRAIL_DETAIL = / via CloudTrail$/;

/** What a match names as its resource: the record's first resource, else the call. */
function resourceOf(event: AccountEvent): string {
  const arn = asString(asObject(asArray(event.detail.resources)[0])?.ARN);
  if (arn) return arn;
  return `${asString(event.detail.eventSource) ?? event.source} ${event.eventName ?? event.detailType}`;
}

/**
 * The tenant's rules that match one event, each as a finding. The rules share one budget for the event
 * (SIGMA_EVENT_FUEL): however they are written, they cost an event at most that.
 */
export function detectSigma(
  event: AccountEvent,
  rules: readonly TenantSigmaDetection[],
): { detection: DetectionDescription; finding: EventFinding }[] {
  if (rules.length === 0 || !CLOUDTRAIL_DETAIL.test(event.detailType)) return [];
  const fuel = eventFuel();
  return rules
    .filter(({ rule }) => rule.matches(event.detail, fuel))
    .map(({ detection, name }) => ({
      detection,
      finding: {
        resource: resourceOf(event),
        region: event.region,
        detail: `The event matched the Sigma rule '${name}'.`,
      },
    }));
}
