// The depth budget of JSON from outside (request bodies, the tRPC input parameter, JSON documents inside an event's
// detail). JSON.parse itself takes any depth, but much of what runs on the result walks it by recursion
// (JSON.stringify, schema validation, a policy's comparison), and a few kilobytes of `[[[[...` overflow the stack:
// a 500, and a thread busy for nothing. The text is scanned before it is parsed, which costs one pass and no
// allocation. Nothing the service accepts nests anywhere near this deep (an EventBridge event, a Stripe event,
// a dashboard input: ten levels or so).

/** The deepest nesting of arrays and objects accepted: `[[1]]` is 2 deep. */
export const JSON_MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether `json` (its text, or its UTF-8 bytes) nests arrays and objects deeper than `maxDepth`, brackets inside
 * strings not counted. It does not validate: text that is not JSON is the parser's to refuse. (In UTF-8 every byte
 * of a multi-byte character is 0x80 or more, so the bytes can be scanned as they are.)
 */
export function nestsDeeperThan(json: string | Uint8Array, maxDepth = JSON_MAX_DEPTH): boolean {
  const codeAt = typeof json === 'string' ? (i: number) => json.charCodeAt(i) : (i: number) => json[i];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const code = codeAt(i);
    if (inString) {
      if (code === BACKSLASH)
        i++; // an escaped character, `\"` included, never ends the string
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: 'too_deep' | 'invalid' };

/** JSON.parse within the depth budget: the value, or whether the text nests too deep or is not JSON. */
export function parseJsonWithin(text: string, maxDepth = JSON_MAX_DEPTH): ParsedJson {
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, problem: 'too_deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'invalid' };
  }
}
