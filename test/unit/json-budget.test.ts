import { JSON_MAX_DEPTH, nestsDeeperThan, parseJsonWithin } from '../../domain/json-budget';

// The depth budget every JSON from outside is held to before it is parsed (domain/json-budget.ts): counted on the text
// or on its UTF-8 bytes, brackets inside strings not counted, whatever the escapes.

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const both = (text: string) => [text, Buffer.from(text)] as const;

describe('nestsDeeperThan', () => {
  it(`accepts ${JSON_MAX_DEPTH} levels of arrays or objects, and refuses one more, as text and as bytes`, () => {
    for (const nest of [arrays, objects]) {
      for (const json of both(nest(JSON_MAX_DEPTH))) expect(nestsDeeperThan(json)).toBe(false);
      for (const json of both(nest(JSON_MAX_DEPTH + 1))) expect(nestsDeeperThan(json)).toBe(true);
    }
    expect(nestsDeeperThan(arrays(5_000))).toBe(true);
    expect(nestsDeeperThan(Buffer.from(objects(20_000)))).toBe(true);
    // Siblings are not depth: a long flat list is one level.
    expect(nestsDeeperThan(`[${Array.from({ length: 10_000 }, () => '[]').join(',')}]`)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ policy: arrays(10_000), also: `"${'{'.repeat(500)}\\` });
    expect(nestsDeeperThan(inString)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(inString))).toBe(false);
    expect(JSON.parse(inString)).toMatchObject({ policy: arrays(10_000) });
    // A string ending in an escaped backslash ends there: what follows is structure again.
    const afterBackslash = `["\\\\",${arrays(JSON_MAX_DEPTH)}]`;
    expect(JSON.parse(afterBackslash)).toHaveLength(2);
    expect(nestsDeeperThan(afterBackslash)).toBe(true);
    // Multi-byte characters (their UTF-8 bytes are all 0x80 or more) are neither quotes nor brackets.
    const unicode = JSON.stringify({ name: '«[{”}]» 漢字 🎉 \u201c' });
    expect(nestsDeeperThan(Buffer.from(unicode), 1)).toBe(false);
  });
});

describe('parseJsonWithin', () => {
  it('parses JSON within the budget, and says why it does not otherwise', () => {
    expect(parseJsonWithin('{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonWithin(arrays(JSON_MAX_DEPTH + 1))).toEqual({ ok: false, problem: 'too_deep' });
    expect(parseJsonWithin('{"a":')).toEqual({ ok: false, problem: 'invalid' });
  });
});
