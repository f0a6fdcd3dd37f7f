import type { DetectionDescription } from '../types';
import { type Condition, ConditionError, evaluateCondition, parseCondition } from './condition';
import type { Fuel } from './regex';
import { type Budget, type CloudTrailRecord, compileSearch, SearchError, type SearchTest } from './search';

// A tenant's own detection: a Sigma rule (https://sigmahq.io, sigma-rules-specification.md) for the AWS CloudTrail
// log source, compiled once from its YAML (read in core/detections/sigma-yaml.ts) into a test each event's CloudTrail
// record is run through.
// What the rule asks that these rules cannot do (another log source, aggregations, a modifier this evaluator lacks) is
// refused by name when it is uploaded, never found out on an event.

type Severity = DetectionDescription['severity'];

/** Search identifiers in one rule. */
export const SIGMA_MAX_IDENTIFIERS = 32;
const TITLE_MAX_CHARS = 256;
const DESCRIPTION_MAX_CHARS = 4_096;

/**
 * What the rules of one tenant may spend on one event, in characters compared (domain/events/sigma/regex.ts, Fuel):
 * some tens of milliseconds at worst, however the rules are written; an ordinary rule spends a few hundred. A rule
 * that would go past it does not match the event.
 */
export const SIGMA_EVENT_FUEL = 2_000_000;

/** The fuel for one event's evaluation. */
export const eventFuel = (): Fuel => ({ left: SIGMA_EVENT_FUEL });

export const SIGMA_LEVELS = ['informational', 'low', 'medium', 'high', 'critical'] as const;
export type SigmaLevel = (typeof SIGMA_LEVELS)[number];

/** Signal severity by rule level: an informational rule still opens a signal, at the lowest severity. */
export const SEVERITY_OF_LEVEL: Readonly<Record<SigmaLevel, Severity>> = {
  informational: 'LOW',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  critical: 'CRITICAL',
};

/** A rule ready to run. */
export interface SigmaRule {
  title: string;
  description: string | null;
  /** The rule's own `id` (a UUID in SigmaHQ's rules), when it has one. */
  sigmaId: string | null;
  level: SigmaLevel;
  severity: Severity;
  /** The web pages the rule refers to (its `references`), for its signals' docs link. */
  references: string[];
  /**
   * Whether a CloudTrail record (an event's `detail`) matches the rule, within `fuel` (shared by the rules run on one
   * event; a fresh SIGMA_EVENT_FUEL when not given).
   */
  matches: (record: CloudTrailRecord, fuel?: Fuel) => boolean;
}

export type CompiledSigma = { ok: true; rule: SigmaRule } | { ok: false; problems: string[] };

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An optional text field: its value, null when absent, or a problem. */
function optionalText(doc: Record<string, unknown>, key: string, max: number, problems: string[]): string | null {
  const value = doc[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    problems.push(`'${key}' must be text`);
    return null;
  }
  if (value.length > max) problems.push(`'${key}' is longer than ${max} characters`);
  return value.trim();
}

/** The rule's references that are web pages, a few and of a sensible length: anything else is left out. */
function referencesOf(doc: Record<string, unknown>): string[] {
  const { references } = doc;
  if (!Array.isArray(references)) return [];
  return references
    .filter((r): r is string => typeof r === 'string' && /^https?:\/\/\S+$/.test(r) && r.length <= 2_048)
    .slice(0, 10);
}

function checkLogSource(doc: Record<string, unknown>, problems: string[]): void {
  const logsource = doc.logsource;
  if (!isMap(logsource)) {
    problems.push("'logsource' is required: product aws, service cloudtrail");
    return;
  }
  const { product, service } = logsource;
  if (product !== 'aws') {
    problems.push(
      `logsource product ${product === undefined ? 'is missing' : `'${String(product)}' is not supported`}: it must be aws`,
    );
  }
  if (service !== 'cloudtrail') {
    problems.push(
      `logsource service ${service === undefined ? 'is missing' : `'${String(service)}' is not supported`}: it must be cloudtrail`,
    );
  }
}

function levelOf(doc: Record<string, unknown>, problems: string[]): SigmaLevel {
  const { level } = doc;
  // The specification makes `level` optional; a rule without one is worth a look, not an incident.
  if (level === undefined || level === null) return 'medium';
  const known = SIGMA_LEVELS.find((l) => l === level);
  if (!known) problems.push(`level '${String(level)}' is not one of ${SIGMA_LEVELS.join(', ')}`);
  return known ?? 'medium';
}

/** The rule's search identifiers, compiled, and its condition; problems for what cannot be. */
function compileDetection(
  detection: Record<string, unknown>,
  problems: string[],
): { searches: Map<string, SearchTest>; conditions: Condition[] } | null {
  if ('timeframe' in detection) problems.push("'timeframe' is not supported: each event is matched alone");
  const names = Object.keys(detection).filter((key) => key !== 'condition' && key !== 'timeframe');
  if (names.length === 0) problems.push('detection has no search identifier');
  if (names.length > SIGMA_MAX_IDENTIFIERS) {
    problems.push(`detection has more than ${SIGMA_MAX_IDENTIFIERS} search identifiers`);
    return null;
  }
  const budget: Budget = { values: 0 };
  const searches = new Map<string, SearchTest>();
  for (const name of names) {
    if (!/^[A-Za-z0-9_-]+$/.test(name) || ['and', 'or', 'not', 'of', 'them', 'all', '1'].includes(name)) {
      problems.push(`'${name}' is not a usable search identifier name (letters, digits, '_' and '-', no keyword)`);
      continue;
    }
    try {
      searches.set(name, compileSearch(name, detection[name], budget));
    } catch (error) {
      if (!(error instanceof SearchError)) throw error;
      problems.push(error.message);
    }
  }
  const raw = detection.condition;
  const texts = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : null;
  if (texts === null || texts.length === 0 || !texts.every((t): t is string => typeof t === 'string')) {
    problems.push("detection 'condition' is required: an expression of the search identifiers");
    return null;
  }
  const conditions: Condition[] = [];
  for (const text of texts) {
    try {
      conditions.push(parseCondition(text, names));
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      problems.push(error.message);
    }
  }
  return { searches, conditions };
}

/** Checks and compiles a rule, as its YAML reads (core/detections/sigma-yaml.ts); every problem found is named. */
export function compileSigmaRule(doc: unknown): CompiledSigma {
  if (!isMap(doc)) return { ok: false, problems: ['the rule must be a YAML map (title, logsource, detection, ...)'] };
  const problems: string[] = [];
  if (doc.correlation !== undefined || doc.type === 'correlation') {
    problems.push('correlation rules are not supported: each event is matched alone');
  }
  if ('timeframe' in doc) problems.push("'timeframe' is not supported: each event is matched alone");
  const title = optionalText(doc, 'title', TITLE_MAX_CHARS, problems);
  if (!title) problems.push("'title' is required");
  const description = optionalText(doc, 'description', DESCRIPTION_MAX_CHARS, problems);
  const sigmaId = optionalText(doc, 'id', 128, problems);
  checkLogSource(doc, problems);
  const level = levelOf(doc, problems);
  const detection = doc.detection;
  const compiled = isMap(detection) ? compileDetection(detection, problems) : null;
  if (!isMap(detection)) problems.push("'detection' is required: search identifiers and a condition");
  if (problems.length > 0 || !compiled || !title) return { ok: false, problems };

  const { searches, conditions } = compiled;
  return {
    ok: true,
    rule: {
      title,
      description,
      sigmaId,
      level,
      severity: SEVERITY_OF_LEVEL[level],
      references: referencesOf(doc),
      // A list of conditions matches when any of them does (the specification's "The condition can be a list").
      matches: (record: CloudTrailRecord, fuel: Fuel = eventFuel()) => {
        const test = (name: string) => (searches.get(name) as SearchTest)(record, fuel);
        return conditions.some((condition) => evaluateCondition(condition, test));
      },
    },
  };
}
