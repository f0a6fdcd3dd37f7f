// A Sigma rule's `condition` (sigma-rules-specification.md, "Condition"): search identifiers joined by `and`, `or`,
// `not` and brackets, and `1 of`/`all of` a pattern of identifiers or `them`. Precedence, least binding first: or,
// and, not, `x of`, brackets. The aggregations of the first specification (`| count() by x > 5`) and `near` need
// state across events, which these rules do not keep: they are refused by name.

export type Condition =
  | { kind: 'id'; name: string }
  | { kind: 'not'; operand: Condition }
  | { kind: 'and' | 'or'; operands: Condition[] }
  | { kind: 'of'; quantifier: 'one' | 'all'; names: string[] };

/** The longest condition read, and how deeply it may nest (brackets and `not`). */
export const CONDITION_MAX_CHARS = 2_048;
const CONDITION_MAX_DEPTH = 32;

export class ConditionError extends Error {}

const TOKEN = /\s*(\(|\)|\||[A-Za-z0-9_*-]+|\S)/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) tokens.push(m[1] as string);
  return tokens;
}

/** A pattern of identifiers (`selection*`) as a test: `*` stands for any characters. */
function patternTest(pattern: string): (name: string) => boolean {
  const parts = pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  const re = new RegExp(`^${parts.join('.*')}$`);
  return (name) => re.test(name);
}

const KEYWORDS = new Set(['and', 'or', 'not', 'of', 'them', 'all']);

/** Parses `text` against the rule's identifiers; throws ConditionError naming what it cannot read. */
export function parseCondition(text: string, identifiers: readonly string[]): Condition {
  if (text.length > CONDITION_MAX_CHARS) {
    throw new ConditionError(`the condition is longer than ${CONDITION_MAX_CHARS} characters`);
  }
  const tokens = tokenize(text);
  if (tokens.includes('|')) {
    throw new ConditionError("aggregations in the condition ('| count() ...') are not supported");
  }
  if (tokens.some((t) => t.toLowerCase() === 'near')) {
    throw new ConditionError("'near' in the condition is not supported");
  }
  let at = 0;
  let depth = 0;
  const peek = () => tokens[at]?.toLowerCase();
  const expect = (what: string) => {
    const token = tokens[at];
    if (token === undefined) throw new ConditionError(`the condition ends where ${what} was expected`);
    return token;
  };

  const or = (): Condition => {
    const operands = [and()];
    while (peek() === 'or') {
      at += 1;
      operands.push(and());
    }
    return operands.length === 1 ? (operands[0] as Condition) : { kind: 'or', operands };
  };
  const and = (): Condition => {
    const operands = [unary()];
    while (peek() === 'and') {
      at += 1;
      operands.push(unary());
    }
    return operands.length === 1 ? (operands[0] as Condition) : { kind: 'and', operands };
  };
  const nested = <T>(read: () => T): T => {
    depth += 1;
    if (depth > CONDITION_MAX_DEPTH) throw new ConditionError(`the condition nests deeper than ${CONDITION_MAX_DEPTH}`);
    const result = read();
    depth -= 1;
    return result;
  };
  const unary = (): Condition => {
    if (peek() === 'not') {
      at += 1;
      return nested(() => ({ kind: 'not', operand: unary() }));
    }
    return primary();
  };
  const primary = (): Condition => {
    const token = expect('a search identifier');
    const lower = token.toLowerCase();
    if (token === '(') {
      at += 1;
      const inner = nested(or);
      if (tokens[at] !== ')') throw new ConditionError(`')' expected in the condition, found ${describe(tokens[at])}`);
      at += 1;
      return inner;
    }
    if (tokens[at + 1]?.toLowerCase() === 'of') {
      if (lower !== '1' && lower !== 'all') {
        throw new ConditionError(`'${token} of' is not supported: the condition may say '1 of' or 'all of'`);
      }
      at += 2;
      const target = expect("a pattern or 'them' after 'of'");
      at += 1;
      const them = target.toLowerCase() === 'them';
      if (!them && !/^[A-Za-z0-9_*-]+$/.test(target)) {
        throw new ConditionError(`'${target}' after 'of' is no pattern of search identifiers`);
      }
      // `them` leaves out identifiers starting with an underscore, by the specification's convention.
      const names = them
        ? identifiers.filter((name) => !name.startsWith('_'))
        : identifiers.filter(patternTest(target));
      if (names.length === 0) {
        throw new ConditionError(`'${token} of ${target}' names no search identifier of the rule`);
      }
      return { kind: 'of', quantifier: lower === '1' ? 'one' : 'all', names };
    }
    if (token === ')' || KEYWORDS.has(lower) || !/^[A-Za-z0-9_-]+$/.test(token)) {
      throw new ConditionError(`a search identifier was expected in the condition, found ${describe(token)}`);
    }
    if (!identifiers.includes(token)) {
      throw new ConditionError(`the condition names '${token}', which is no search identifier of the rule`);
    }
    at += 1;
    return { kind: 'id', name: token };
  };

  if (tokens.length === 0) throw new ConditionError('the condition is empty');
  const condition = or();
  if (at < tokens.length) throw new ConditionError(`unexpected ${describe(tokens[at])} in the condition`);
  return condition;
}

const describe = (token: string | undefined) => (token === undefined ? 'the end' : `'${token}'`);

/** Evaluates a condition, each identifier by `test` (asked at most as often as the condition needs it). */
export function evaluateCondition(condition: Condition, test: (name: string) => boolean): boolean {
  switch (condition.kind) {
    case 'id':
      return test(condition.name);
    case 'not':
      return !evaluateCondition(condition.operand, test);
    case 'and':
      return condition.operands.every((c) => evaluateCondition(c, test));
    case 'or':
      return condition.operands.some((c) => evaluateCondition(c, test));
    case 'of':
      return condition.quantifier === 'one' ? condition.names.some(test) : condition.names.every(test);
  }
}
