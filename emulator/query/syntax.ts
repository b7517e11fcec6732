import { queryError, type QueryPart } from "./errors";

/** One segment of a `#`-joined field path: letters, digits, `_`, `$`, `.`, `-`. */
export const FIELD_SEGMENT = /^[A-Za-z0-9_$.-]+$/;

/**
 * Reads a single-quoted string whose opening quote is at `start`; `''` stands
 * for one quote. Returns the text and the offset just past the closing quote.
 */
export function readQuoted(text: string, start: number, part: QueryPart): { value: string; end: number } {
  let value = "";
  let pos = start + 1;
  for (;;) {
    const close = text.indexOf("'", pos);
    if (close < 0) throw queryError(part, "unterminated string", start);
    value += text.slice(pos, close);
    if (text[close + 1] !== "'") return { value, end: close + 1 };
    value += "'";
    pos = close + 2;
  }
}
