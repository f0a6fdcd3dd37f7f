// Sigma's plain values: `*` for any run of characters, `?` for one, a backslash escaping either or itself
// (sigma-rules-specification.md, "String Wildcard" and "Escape Character"). Matched by splitting the pattern at its
// stars and finding each piece in turn, leftmost first: a piece found further left never rules out a match the
// rest could make, so there is no backtracking, and a match costs at most the text's length times the pattern's.

/** A value read: its pieces between stars (each a list of characters or `?`), and whether it starts or ends with one. */
export interface Glob {
  pieces: (string | null)[][];
  leadingStar: boolean;
  trailingStar: boolean;
}

/**
 * Reads a plain value. A backslash before `*`, `?` or a backslash makes it plain; `\\*` is a backslash then a star;
 * a backslash before anything else is itself (the specification's "Three or four backslashes are handled as double
 * backslash").
 */
export function readGlob(value: string): Glob {
  const pieces: (string | null)[][] = [[]];
  const current = () => pieces[pieces.length - 1] as (string | null)[];
  for (let at = 0; at < value.length; at++) {
    const c = value[at] as string;
    if (c === '\\') {
      const next = value[at + 1];
      if (next === '*' || next === '?' || next === '\\') {
        current().push(next);
        at += 1;
      } else {
        current().push(c);
      }
    } else if (c === '*') {
      pieces.push([]);
    } else {
      current().push(c === '?' ? null : c);
    }
  }
  return {
    leadingStar: pieces.length > 1 && (pieces[0] as unknown[]).length === 0,
    trailingStar: pieces.length > 1 && current().length === 0,
    pieces: pieces.filter((piece) => piece.length > 0),
  };
}

/** A glob with stars added around it (`contains`), before it (`endswith`) or after it (`startswith`). */
export function widen(glob: Glob, { before, after }: { before: boolean; after: boolean }): Glob {
  return { ...glob, leadingStar: glob.leadingStar || before, trailingStar: glob.trailingStar || after };
}

const pieceAt = (text: string, piece: readonly (string | null)[], at: number): boolean =>
  at + piece.length <= text.length && piece.every((c, i) => c === null || c === text[at + i]);

/** The leftmost position at or after `from` where `piece` is, or -1. */
function find(text: string, piece: readonly (string | null)[], from: number): number {
  for (let at = from; at + piece.length <= text.length; at++) if (pieceAt(text, piece, at)) return at;
  return -1;
}

/** Lower-cases a glob's characters, for the case-insensitive default. */
export function lowerGlob(glob: Glob): Glob {
  return { ...glob, pieces: glob.pieces.map((piece) => piece.map((c) => c?.toLowerCase() ?? null)) };
}

/** Whether the glob matches the whole of `text` (already lower-cased when the glob is). */
export function globMatches(glob: Glob, text: string): boolean {
  const { pieces, leadingStar, trailingStar } = glob;
  if (pieces.length === 0) return leadingStar || trailingStar || text.length === 0;
  const starred = leadingStar || trailingStar || pieces.length > 1;
  if (!starred) {
    const [only] = pieces as [(string | null)[]];
    return only.length === text.length && pieceAt(text, only, 0);
  }
  let at = 0;
  let first = 0;
  let last = pieces.length;
  if (!leadingStar) {
    const head = pieces[0] as (string | null)[];
    if (!pieceAt(text, head, 0)) return false;
    at = head.length;
    first = 1;
  }
  let end = text.length;
  if (!trailingStar) {
    const tail = pieces[pieces.length - 1] as (string | null)[];
    end = text.length - tail.length;
    if (end < at || !pieceAt(text, tail, end)) return false;
    last -= 1;
  }
  for (let i = first; i < last; i++) {
    const piece = pieces[i] as (string | null)[];
    const found = find(text, piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
