/**
 * A robots.txt path pattern (RFC 9309 §2.2.3): `*` matches any run of characters and a final `$`
 * anchors the end. Matching splits the pattern at its stars and places each literal piece at its
 * leftmost position after the previous one: with `*` as the only wildcard the leftmost placement
 * never rules out a match, so there is no backtracking, unlike the regular expression this
 * replaces (`/a*a*a*...b` against a long path took seconds to minutes). Each piece is searched
 * once, from where the last one ended: time grows with the pattern's length, never exponentially.
 */
export interface PathPattern {
  /** The pattern's length in characters: the longest matching rule wins. */
  readonly length: number;
  matches(path: string): boolean;
}

export function compilePattern(pattern: string): PathPattern {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  // Consecutive stars match what one does.
  const pieces = body.split('*');
  const first = pieces[0]!;
  const last = pieces.length > 1 ? pieces[pieces.length - 1]! : undefined;
  const middle = pieces.slice(1, -1).filter((p) => p !== '');
  return {
    length: pattern.length,
    matches(path: string): boolean {
      if (!path.startsWith(first)) return false;
      if (last === undefined) return !anchored || path.length === first.length;
      let at = first.length;
      for (const piece of middle) {
        const found = path.indexOf(piece, at);
        if (found < 0) return false;
        at = found + piece.length;
      }
      if (!anchored) return last === '' || path.indexOf(last, at) >= 0;
      // The end is fixed: the last piece must fit after everything placed before it.
      return path.length - last.length >= at && path.endsWith(last);
    },
  };
}
