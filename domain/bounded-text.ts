// Text from outside that Sentinel keeps and shows (a resource's name, who acted) is kept within a number of bytes:
// cut at a character, with a marker that says so, so a name of 200 KB neither fills a page nor breaks an index, and
// the reader sees it was longer.

export const TRUNCATED = '… [truncated]';

const utf8Length = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

const MARKER_BYTES = [...TRUNCATED].reduce((sum, c) => sum + utf8Length(c.codePointAt(0)!), 0);

/**
 * `text` if its UTF-8 is at most `maxBytes`; else its longest start that fits with the marker after it, the whole
 * within `maxBytes`. The same text always gives the same result, so a bounded name still identifies what it names.
 */
export function boundText(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most text needs no count.
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  let units = 0;
  let cut = -1;
  for (const char of text) {
    bytes += utf8Length(char.codePointAt(0)!);
    if (cut < 0 && bytes > maxBytes - MARKER_BYTES) cut = units;
    if (bytes > maxBytes) return `${text.slice(0, cut)}${TRUNCATED}`;
    units += char.length;
  }
  return text;
}

/** `boundText` for a value that may be absent. */
export const boundNullableText = (text: string | null, maxBytes: number): string | null =>
  text === null ? null : boundText(text, maxBytes);
