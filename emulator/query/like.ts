/**
 * Translates a SQL LIKE pattern into an anchored regular expression:
 * `%` is any run of characters, `_` exactly one, and a backslash makes the
 * next character literal (`\%`, `\_`, `\\`). LIKE is case-insensitive, as
 * users of the vendor's clients type `Web*` to find `web01`.
 */
export function likeToRegex(pattern: string): RegExp {
  let source = "";
  for (let pos = 0; pos < pattern.length; pos++) {
    const char = pattern[pos];
    if (char === "\\" && pos + 1 < pattern.length) {
      source += escapeRegex(pattern[++pos]);
    } else if (char === "%") {
      source += ".*";
    } else if (char === "_") {
      source += ".";
    } else {
      source += escapeRegex(char);
    }
  }
  return new RegExp(`^${source}$`, "is");
}

function escapeRegex(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
