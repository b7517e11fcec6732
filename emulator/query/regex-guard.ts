import { queryError } from "./errors";

/** Longest `rx` pattern accepted; longer ones are more likely abuse than queries. */
export const MAX_PATTERN_LENGTH = 512;

/**
 * Compiles an `rx` pattern as a JavaScript regular expression, refusing the
 * shapes that make a backtracking engine run for exponential time: a
 * quantified group that itself contains a quantifier (`(a+)+`, `(\w*)*`,
 * `((ab)+c)*`) and backreferences. This is a heuristic: overlapping
 * alternatives under a quantifier (`(a|a)+`) are not detected.
 */
export function compileSafeRegex(pattern: string, position: number): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw queryError("filter", `regular expression longer than ${MAX_PATTERN_LENGTH} characters`, position);
  }
  const risk = findBacktrackingRisk(pattern);
  if (risk) throw queryError("filter", `regular expression refused (${risk})`, position);
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw queryError("filter", `invalid regular expression: ${(error as Error).message}`, position);
  }
}

interface Group {
  quantified: boolean; // contains a quantifier anywhere inside
}

function findBacktrackingRisk(pattern: string): string | undefined {
  const groups: Group[] = [{ quantified: false }];
  let pos = 0;
  while (pos < pattern.length) {
    const char = pattern[pos];
    if (char === "\\") {
      const next = pattern[pos + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "backreference";
      pos += 2;
      continue;
    }
    if (char === "[") {
      pos = skipCharacterClass(pattern, pos);
      continue;
    }
    if (char === "(") {
      groups.push({ quantified: false });
      pos++;
      continue;
    }
    if (char === ")" && groups.length > 1) {
      const group = groups.pop()!;
      const quantifierLength = quantifierAt(pattern, pos + 1);
      if (quantifierLength > 0 && group.quantified) return "nested quantifier";
      const parent = groups[groups.length - 1];
      parent.quantified ||= group.quantified || quantifierLength > 0;
      pos += 1 + quantifierLength;
      continue;
    }
    const quantifierLength = quantifierAt(pattern, pos);
    if (quantifierLength > 0) {
      groups[groups.length - 1].quantified = true;
      pos += quantifierLength;
      continue;
    }
    pos++;
  }
  return undefined;
}

/** Length of a repeating quantifier (`*`, `+`, `{n,}`, `{n,m}`, with a lazy `?`) at pos, else 0. */
function quantifierAt(pattern: string, pos: number): number {
  const match = /^(?:[*+]|\{\d+(?:,\d*)?\})\??/.exec(pattern.slice(pos, pos + 24));
  return match ? match[0].length : 0;
}

function skipCharacterClass(pattern: string, start: number): number {
  let pos = start + 1;
  while (pos < pattern.length && pattern[pos] !== "]") pos += pattern[pos] === "\\" ? 2 : 1;
  return pos + 1;
}
