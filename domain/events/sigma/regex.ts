// The `re` modifier's regular expressions, run by an engine of our own rather than JavaScript's RegExp. A tenant's
// rule runs on every event its accounts forward, and a backtracking engine given `(a+)+$` or `.*.*.*x` takes time
// exponential or polynomial in the field's length: one rule could stall ingestion for every tenant. This one
// simulates the expression's automaton over the text in one pass (a Pike VM without captures), so a match costs at
// most the text's length times the program's size, whatever the pattern.
//
// It reads the flavour the Sigma specification defines for `re` (sigma-appendix-modifiers.md, "Regular Expression"):
// `.`, `^`, `$`, `*`, `+`, `?`, `{n,m}`, classes `[a-z]` and `[^a-z]`, alternation and grouping; with the escapes
// rules write (`\.`, `\d`, `\w`, `\s` and their negations, `\t`, `\n`, `\r`) and non-capturing groups. What the
// specification leaves out (back-references, look-around, word boundaries, named groups) is refused by name.

/** The sub-modifiers of `re`: case-insensitive, `^`/`$` at line ends, `.` matching newlines. */
export interface RegexFlags {
  i: boolean;
  m: boolean;
  s: boolean;
}

/** At most this many instructions in a compiled expression (a `{n,m}` repeats its operand's). */
export const REGEX_PROGRAM_MAX = 2_000;
/** The largest count a `{n,m}` may name. */
const REPEAT_MAX = 100;

type CharTest = (c: string) => boolean;

type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number | null };

export class RegexError extends Error {}

const DIGIT: CharTest = (c) => c >= '0' && c <= '9';
const WORD: CharTest = (c) => DIGIT(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const SPACE: CharTest = (c) => /^\s$/.test(c);
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = {
  d: DIGIT,
  D: not(DIGIT),
  w: WORD,
  W: not(WORD),
  s: SPACE,
  S: not(SPACE),
};
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f', v: '\v' };

/** A character compared as the flags say: both cases when case-insensitive. */
function literal(char: string, flags: RegexFlags): CharTest {
  if (!flags.i) return (c) => c === char;
  const lower = char.toLowerCase();
  return (c) => c.toLowerCase() === lower;
}

class Parser {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly flags: RegexFlags,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new RegexError(`unbalanced ')' at position ${this.at}`);
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.at += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'seq', items };
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number | null;
    if (c === '*' || c === '+' || c === '?') {
      this.at += 1;
      [min, max] = c === '*' ? [0, null] : c === '+' ? [1, null] : [0, 1];
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.at))) {
      const [text = '', low = '', comma, high] = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at)) ?? [];
      this.at += text.length;
      min = Number(low);
      max = comma === undefined ? min : high ? Number(high) : null;
      if (min > REPEAT_MAX || (max !== null && (max > REPEAT_MAX || max < min))) {
        throw new RegexError(`repetition ${text} is out of range (counts up to ${REPEAT_MAX}, low before high)`);
      }
    } else {
      return node;
    }
    if (node.kind === 'start' || node.kind === 'end') throw new RegexError('an anchor cannot be repeated');
    // Lazy and greedy repeats match the same texts: only whether there is a match is asked.
    if (this.peek() === '?') this.at += 1;
    else if (this.peek() === '+') throw new RegexError('possessive quantifiers are not supported');
    const next = this.peek();
    if (next === '*' || next === '+' || next === '{') throw new RegexError(`nothing to repeat at position ${this.at}`);
    return { kind: 'repeat', node, min, max };
  }

  private atom(): Node {
    const c = this.peek() as string;
    this.at += 1;
    switch (c) {
      case '(': {
        if (this.peek() === '?') {
          if (this.source[this.at + 1] !== ':') {
            throw new RegexError('look-around and named groups are not supported');
          }
          this.at += 2;
        }
        const inner = this.alternation();
        if (this.peek() !== ')') throw new RegexError("unbalanced '('");
        this.at += 1;
        return inner;
      }
      case '[':
        return this.characterClass();
      case '.':
        return { kind: 'char', test: this.flags.s ? () => true : (ch) => ch !== '\n' };
      case '^':
        return { kind: 'start' };
      case '$':
        return { kind: 'end' };
      case '\\':
        return { kind: 'char', test: this.escape() };
      case '*':
      case '+':
      case '?':
        throw new RegexError(`nothing to repeat at position ${this.at - 1}`);
      default:
        return { kind: 'char', test: literal(c, this.flags) };
    }
  }

  /** After a backslash: a class (`\d`), a control character (`\n`), or an escaped punctuation character. */
  private escape(): CharTest {
    const c = this.peek();
    if (c === undefined) throw new RegexError('the expression ends with a backslash');
    this.at += 1;
    const escapedClass = CLASS_ESCAPES[c];
    if (escapedClass) return escapedClass;
    const control = CONTROL_ESCAPES[c];
    if (control) return literal(control, this.flags);
    if (/[A-Za-z0-9]/.test(c)) {
      throw new RegexError(
        /[1-9]/.test(c) ? 'back-references are not supported' : `the escape \\${c} is not supported`,
      );
    }
    return literal(c, this.flags);
  }

  private characterClass(): Node {
    const negated = this.peek() === '^';
    if (negated) this.at += 1;
    const tests: CharTest[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new RegexError("unbalanced '['");
      if (c === ']' && !first) break;
      first = false;
      this.at += 1;
      if (c === '\\') {
        const e = this.peek();
        if (e !== undefined && CLASS_ESCAPES[e]) {
          this.at += 1;
          tests.push(CLASS_ESCAPES[e] as CharTest);
          continue;
        }
      }
      const low = c === '\\' ? this.classEscape() : c;
      if (this.peek() === '-' && this.source[this.at + 1] !== ']' && this.source[this.at + 1] !== undefined) {
        this.at += 1;
        const h = this.peek() as string;
        this.at += 1;
        const high = h === '\\' ? this.classEscape() : h;
        if (high < low) throw new RegexError(`the range ${low}-${high} is out of order`);
        tests.push(this.range(low, high));
      } else {
        tests.push(literal(low, this.flags));
      }
    }
    this.at += 1;
    const inClass: CharTest = (ch) => tests.some((test) => test(ch));
    return { kind: 'char', test: negated ? not(inClass) : inClass };
  }

  private classEscape(): string {
    const c = this.peek();
    if (c === undefined) throw new RegexError('the expression ends with a backslash');
    this.at += 1;
    const control = CONTROL_ESCAPES[c];
    if (control) return control;
    if (/[A-Za-z0-9]/.test(c)) throw new RegexError(`the escape \\${c} is not supported`);
    return c;
  }

  private range(low: string, high: string): CharTest {
    const inRange = (ch: string) => ch >= low && ch <= high;
    if (!this.flags.i) return inRange;
    return (ch) => inRange(ch) || inRange(ch.toLowerCase()) || inRange(ch.toUpperCase());
  }
}

type Instruction =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; to: [number, number] }
  | { op: 'jump'; to: number }
  | { op: 'start' }
  | { op: 'end' }
  | { op: 'match' };

function emit(node: Node, program: Instruction[]): void {
  if (program.length > REGEX_PROGRAM_MAX) {
    throw new RegexError(`the expression is too large (over ${REGEX_PROGRAM_MAX} steps once repeats are expanded)`);
  }
  switch (node.kind) {
    case 'char':
      program.push({ op: 'char', test: node.test });
      return;
    case 'start':
    case 'end':
      program.push({ op: node.kind });
      return;
    case 'seq':
      for (const item of node.items) emit(item, program);
      return;
    case 'alt': {
      const jumps: { op: 'jump'; to: number }[] = [];
      node.options.forEach((option, index) => {
        if (index === node.options.length - 1) {
          emit(option, program);
          return;
        }
        const split: { op: 'split'; to: [number, number] } = { op: 'split', to: [program.length + 1, 0] };
        program.push(split);
        emit(option, program);
        const jump = { op: 'jump' as const, to: 0 };
        jumps.push(jump);
        program.push(jump);
        split.to[1] = program.length;
      });
      for (const jump of jumps) jump.to = program.length;
      return;
    }
    case 'repeat': {
      for (let i = 0; i < node.min; i++) emit(node.node, program);
      if (node.max === null) {
        const split: { op: 'split'; to: [number, number] } = { op: 'split', to: [program.length + 1, 0] };
        const loop = program.length;
        program.push(split);
        emit(node.node, program);
        program.push({ op: 'jump', to: loop });
        split.to[1] = program.length;
        return;
      }
      const exits: { op: 'split'; to: [number, number] }[] = [];
      for (let i = node.min; i < node.max; i++) {
        const split: { op: 'split'; to: [number, number] } = { op: 'split', to: [program.length + 1, 0] };
        exits.push(split);
        program.push(split);
        emit(node.node, program);
      }
      for (const split of exits) split.to[1] = program.length;
      return;
    }
  }
}

/**
 * What one evaluation may still spend, in characters compared (a regex thread's step costs REGEX_STEP_FUEL): shared by
 * every expression and value of the rules run on one event, so that however a rule is written, an event costs
 * them at most this much. Spent, a test answers no match.
 */
export interface Fuel {
  left: number;
}

/** A thread's step costs this much fuel: some sixteen times a character compared, as measured. */
export const REGEX_STEP_FUEL = 16;

/** A compiled expression: whether it matches somewhere in a text, within `fuel`. */
export type RegexTest = (text: string, fuel: Fuel) => boolean;

/** Compiles `source` under `flags`; throws RegexError naming what it cannot read. */
export function compileRegex(source: string, flags: RegexFlags): RegexTest {
  const program: Instruction[] = [];
  emit(new Parser(source, flags).parse(), program);
  program.push({ op: 'match' });
  if (program.length > REGEX_PROGRAM_MAX) {
    throw new RegexError(`the expression is too large (over ${REGEX_PROGRAM_MAX} steps once repeats are expanded)`);
  }
  const size = program.length;

  return (text, fuel) => {
    const lineStart = (at: number) => at === 0 || (flags.m && text.charCodeAt(at - 1) === 10);
    const lineEnd = (at: number) => at === text.length || (flags.m && text.charCodeAt(at) === 10);
    // The threads at this position and the next (instruction indexes), and how many each holds.
    let current = new Int32Array(size);
    let next = new Int32Array(size);
    let currentCount = 0;
    const stack = new Int32Array(size * 2 + 2);
    // The generation each instruction was last added in: a thread is added once per position.
    const seen = new Int32Array(size).fill(-1);
    let generation = 0;
    /** Follows jumps, splits and anchors from `pc` at position `at` into `list`: its new count, or -1 once the program matches. */
    const add = (list: Int32Array, count: number, pc: number, at: number): number => {
      let top = 0;
      stack[top++] = pc;
      while (top > 0) {
        const p = stack[--top] as number;
        if (seen[p] === generation) continue;
        seen[p] = generation;
        const instruction = program[p] as Instruction;
        switch (instruction.op) {
          case 'match':
            return -1;
          case 'jump':
            stack[top++] = instruction.to;
            break;
          case 'split':
            stack[top++] = instruction.to[1];
            stack[top++] = instruction.to[0];
            break;
          case 'start':
            if (lineStart(at)) stack[top++] = p + 1;
            break;
          case 'end':
            if (lineEnd(at)) stack[top++] = p + 1;
            break;
          case 'char':
            list[count++] = p;
            break;
        }
      }
      return count;
    };
    for (let at = 0; at <= text.length; at++) {
      // A match may begin at any position: the start state joins the threads carried over from the last one.
      currentCount = add(current, currentCount, 0, at);
      if (currentCount < 0) return true;
      if (at === text.length) break;
      generation += 1;
      if (currentCount === 0) continue;
      fuel.left -= currentCount * REGEX_STEP_FUEL;
      if (fuel.left < 0) return false;
      const c = text[at] as string;
      let nextCount = 0;
      for (let t = 0; t < currentCount; t++) {
        const pc = current[t] as number;
        if ((program[pc] as { op: 'char'; test: CharTest }).test(c)) {
          nextCount = add(next, nextCount, pc + 1, at + 1);
          if (nextCount < 0) return true;
        }
      }
      [current, next] = [next, current];
      currentCount = nextCount;
    }
    return false;
  };
}
