import { parseCidr } from './cidr';
import { compileRegex, type Fuel, RegexError } from './regex';
import { type Glob, globMatches, lowerGlob, readGlob, widen } from './wildcards';

// A search identifier of a rule's `detection` (sigma-rules-specification.md, "Search-Identifier"): a map of fields to
// values, every field matching (AND), or a list of such maps, any one matching (OR). A field's list of values matches
// when any value does, or every value with `all`. Fields are paths into the CloudTrail record (`userIdentity.type`).
// Keyword searches (a list of bare strings, matched against the whole record) are refused: CloudTrail records are
// structured, and a rule names the field it means.

/** The CloudTrail record an event carries in its `detail`. */
export type CloudTrailRecord = Record<string, unknown>;

/** The bounds on what a rule may ask, so that a tenant's rule costs every event little (docs/decisions.md, "Sigma"). */
export const SIGMA_BOUNDS = {
  /** Values across the rule's search identifiers. */
  values: 512,
  /** Fields in one map. */
  fieldsPerMap: 32,
  /** Maps in one list. */
  mapsPerList: 32,
  /** Characters of one plain value. */
  valueChars: 1_024,
  /** Characters of one `re` expression. */
  regexChars: 512,
  /** Segments of a field's path. */
  pathSegments: 8,
  /**
   * Characters of a field's value that are read: a longer one (a large policy document as JSON) is matched on its
   * first this many. CloudTrail cuts request parameters at 100 KB, and what rules match is nearly always a name.
   */
  matchedChars: 16_384,
  /** Values of one field collected through arrays (`resources.ARN`). */
  collectedValues: 256,
} as const;

export const SUPPORTED_MODIFIERS = [
  'contains',
  'startswith',
  'endswith',
  'all',
  'cased',
  're',
  'i',
  'm',
  's',
  'cidr',
  'exists',
  'lt',
  'lte',
  'gt',
  'gte',
] as const;
type Modifier = (typeof SUPPORTED_MODIFIERS)[number];
const MODIFIERS: ReadonlySet<string> = new Set(SUPPORTED_MODIFIERS);
const NUMERIC = new Set(['lt', 'lte', 'gt', 'gte']);
const TEXT = new Set(['contains', 'startswith', 'endswith']);

/** A path segment of a CloudTrail record: the names AWS writes (`requestParameters`, `x-amz-id-2`, `ARN`). */
const SEGMENT = /^[A-Za-z0-9_@$-]+$/;

export class SearchError extends Error {}

/** Whether a search identifier matches a record, within the event's fuel. */
export type SearchTest = (record: CloudTrailRecord, fuel: Fuel) => boolean;

/**
 * The values at a path: none when it is absent, several where it crosses an array (`resources.ARN` is every
 * resource's ARN). A null is kept: a null value and an absent field differ for `exists`.
 */
function valuesAt(record: CloudTrailRecord, path: readonly string[]): unknown[] {
  let current: unknown[] = [record];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const value of current) {
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (typeof item === 'object' && item !== null && !Array.isArray(item) && Object.hasOwn(item, segment)) {
          next.push((item as Record<string, unknown>)[segment]);
        }
        if (next.length >= SIGMA_BOUNDS.collectedValues) break;
      }
    }
    current = next;
    if (current.length === 0) return current;
  }
  // A field holding a list matches through its items, as a field crossed on the way does.
  return current.flatMap((v) => (Array.isArray(v) ? v : [v])).slice(0, SIGMA_BOUNDS.collectedValues);
}

/**
 * The JSON text of the structures matched, by structure: an event's `requestParameters` is written out once however
 * many rules and values read it as text.
 */
const jsonTexts = new WeakMap<object, string>();

/** A value as text: a structure (requestParameters) as its JSON, within the bound. */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    let text = jsonTexts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value).slice(0, SIGMA_BOUNDS.matchedChars);
      jsonTexts.set(value, text);
    }
    return text;
  }
  const text = typeof value === 'string' ? value : String(value);
  return text.length > SIGMA_BOUNDS.matchedChars ? text.slice(0, SIGMA_BOUNDS.matchedChars) : text;
}

const numberOf = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * Charges a plain value's match to the fuel: finding a piece compares at most its length at each position of the
 * text. False once the fuel is spent.
 */
function withinFuel(glob: Glob, text: string, fuel: Fuel): boolean {
  const longest = glob.pieces.reduce((max, piece) => Math.max(max, piece.length), 1);
  fuel.left -= text.length * longest;
  return fuel.left >= 0;
}

type ValueTest = (value: unknown, fuel: Fuel) => boolean;

/** Counts values across the rule, to hold it within SIGMA_BOUNDS.values. */
export interface Budget {
  values: number;
}

/** How one field matches, from its key (`eventName|startswith`) and its value or values. */
function fieldTest(key: string, raw: unknown, where: string, budget: Budget): SearchTest {
  const [field = '', ...modifiers] = key.split('|');
  if (field === '') throw new SearchError(`${where}: keyword searches ('${key}') are not supported: name a field`);
  const path = field.split('.');
  if (path.length > SIGMA_BOUNDS.pathSegments || !path.every((s) => SEGMENT.test(s))) {
    throw new SearchError(
      `${where}: '${field}' is not a CloudTrail record path (names of letters, digits, '_', '-', '@' and '$' joined by dots, at most ${SIGMA_BOUNDS.pathSegments})`,
    );
  }
  const unsupported = modifiers.filter((m) => !MODIFIERS.has(m));
  if (unsupported.length > 0) {
    throw new SearchError(
      `${where}: the modifier${unsupported.length > 1 ? 's' : ''} ${unsupported.map((m) => `'${m}'`).join(', ')} of '${key}' ${unsupported.length > 1 ? 'are' : 'is'} not supported (supported: ${SUPPORTED_MODIFIERS.join(', ')})`,
    );
  }
  const mods = new Set(modifiers as Modifier[]);
  if (mods.size !== modifiers.length) throw new SearchError(`${where}: '${key}' repeats a modifier`);
  const kinds = modifiers.filter((m) => m === 're' || m === 'cidr' || m === 'exists' || NUMERIC.has(m));
  const textKinds = modifiers.filter((m) => TEXT.has(m));
  if (kinds.length + Math.min(textKinds.length, 1) > 1 || textKinds.length > 1) {
    throw new SearchError(`${where}: '${key}' combines modifiers that do not go together`);
  }
  const [kind] = kinds;
  const reFlags = modifiers.filter((m) => m === 'i' || m === 'm' || m === 's');
  if (reFlags.length > 0 && kind !== 're') {
    throw new SearchError(`${where}: '${key}': the modifiers i, m and s go with 're'`);
  }
  if (mods.has('cased') && kind !== undefined) {
    throw new SearchError(`${where}: '${key}': 'cased' goes with plain, contains, startswith and endswith values`);
  }

  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length === 0) throw new SearchError(`${where}: '${key}' has an empty list of values`);
  budget.values += values.length;
  if (budget.values > SIGMA_BOUNDS.values) {
    throw new SearchError(`the rule has more than ${SIGMA_BOUNDS.values} values`);
  }
  if (mods.has('all') && kind === 'exists')
    throw new SearchError(`${where}: '${key}': 'all' does not go with 'exists'`);

  const readPath = (record: CloudTrailRecord) => valuesAt(record, path);

  if (kind === 'exists') {
    if (values.length !== 1 || typeof values[0] !== 'boolean') {
      throw new SearchError(`${where}: '${key}' takes true or false`);
    }
    const wanted = values[0];
    return (record) => readPath(record).length > 0 === wanted;
  }

  // `null` is its own type, alone: the field is absent or null (sigma-rules-specification.md, "Special Field Values").
  if (values.includes(null)) {
    if (values.length > 1 || modifiers.length > 0) {
      throw new SearchError(`${where}: '${key}': null stands alone, with no modifier and in no list`);
    }
    return (record) => {
      const found = readPath(record);
      return found.length === 0 || found.includes(null);
    };
  }

  const tests = values.map((value, index): ValueTest => {
    const at = Array.isArray(raw) ? `${where}: '${key}' value ${index + 1}` : `${where}: '${key}'`;
    if (typeof value === 'object')
      throw new SearchError(`${at} is a ${Array.isArray(value) ? 'list' : 'map'}, not a value`);
    if (kind !== undefined && NUMERIC.has(kind)) {
      if (typeof value !== 'number') throw new SearchError(`${at} must be a number for '${kind}'`);
      const compare =
        kind === 'lt'
          ? (n: number) => n < value
          : kind === 'lte'
            ? (n: number) => n <= value
            : kind === 'gt'
              ? (n: number) => n > value
              : (n: number) => n >= value;
      return (v) => {
        const n = numberOf(v);
        return n !== null && compare(n);
      };
    }
    const text = String(value);
    if (kind === 'cidr') {
      const inNetwork = parseCidr(text);
      if (!inNetwork) throw new SearchError(`${at}: '${text}' is not a CIDR network`);
      return (v) => typeof v === 'string' && inNetwork(v);
    }
    if (kind === 're') {
      if (text.length > SIGMA_BOUNDS.regexChars) {
        throw new SearchError(`${at}: the expression is longer than ${SIGMA_BOUNDS.regexChars} characters`);
      }
      try {
        const test = compileRegex(text, { i: mods.has('i'), m: mods.has('m'), s: mods.has('s') });
        return (v, fuel) => {
          const t = textOf(v);
          return t !== null && test(t, fuel);
        };
      } catch (error) {
        if (error instanceof RegexError) throw new SearchError(`${at}: ${error.message}`);
        throw error;
      }
    }
    if (text.length > SIGMA_BOUNDS.valueChars) {
      throw new SearchError(`${at} is longer than ${SIGMA_BOUNDS.valueChars} characters`);
    }
    // Numbers and booleans are compared as CloudTrail may write them either way: 4769 and '4769'.
    const glob = widen(readGlob(text), {
      before: mods.has('contains') || mods.has('endswith'),
      after: mods.has('contains') || mods.has('startswith'),
    });
    const cased = mods.has('cased');
    const pattern = cased ? glob : lowerGlob(glob);
    return (v, fuel) => {
      const t = textOf(v);
      return t !== null && withinFuel(pattern, t, fuel) && globMatches(pattern, cased ? t : t.toLowerCase());
    };
  });

  if (mods.has('all')) {
    return (record, fuel) => {
      const found = readPath(record);
      return tests.every((test) => found.some((v) => test(v, fuel)));
    };
  }
  return (record, fuel) => {
    const found = readPath(record);
    return found.some((v) => tests.some((test) => test(v, fuel)));
  };
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function mapTest(map: Record<string, unknown>, where: string, budget: Budget): SearchTest {
  const entries = Object.entries(map);
  if (entries.length === 0) throw new SearchError(`${where} is an empty map`);
  if (entries.length > SIGMA_BOUNDS.fieldsPerMap) {
    throw new SearchError(`${where} has more than ${SIGMA_BOUNDS.fieldsPerMap} fields`);
  }
  const tests = entries.map(([key, value]) => fieldTest(key, value, where, budget));
  return (record, fuel) => tests.every((test) => test(record, fuel));
}

/** Compiles the search identifier `name` of a rule; throws SearchError naming what it cannot use. */
export function compileSearch(name: string, definition: unknown, budget: Budget): SearchTest {
  const where = `detection.${name}`;
  if (isMap(definition)) return mapTest(definition, where, budget);
  if (Array.isArray(definition) && definition.length > 0 && definition.every(isMap)) {
    if (definition.length > SIGMA_BOUNDS.mapsPerList) {
      throw new SearchError(`${where} lists more than ${SIGMA_BOUNDS.mapsPerList} maps`);
    }
    const tests = definition.map((map, index) => mapTest(map, `${where}[${index + 1}]`, budget));
    return (record, fuel) => tests.some((test) => test(record, fuel));
  }
  if (Array.isArray(definition) || typeof definition === 'string' || typeof definition === 'number') {
    throw new SearchError(`${where}: keyword searches (values with no field) are not supported: name a field`);
  }
  throw new SearchError(`${where} must be a map of fields to values or a list of such maps`);
}
