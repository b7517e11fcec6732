import { queryError } from "./errors";

export type TokenKind = "word" | "string" | "(" | ")" | "," | "{" | "}" | "end";

/** One token of a filter; `pos` is its 0-based offset in the filter text. */
export interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

const PUNCTUATION = new Set(["(", ")", ",", "{", "}"]);
const WHITESPACE = /\s/;

/**
 * Splits a filter into words (field names, operators, keywords, bare
 * numbers), single-quoted strings (`''` is a quote) and punctuation. Ends with
 * an "end" token so the parser never reads past the text.
 */
export function tokenizeFilter(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const char = text[pos];
    if (WHITESPACE.test(char)) {
      pos++;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: char as TokenKind, text: char, pos });
      pos++;
    } else if (char === "'") {
      const string = readQuoted(text, pos);
      tokens.push({ kind: "string", text: string.value, pos });
      pos = string.end;
    } else {
      const start = pos;
      while (pos < text.length && !isWordBoundary(text[pos])) pos++;
      tokens.push({ kind: "word", text: text.slice(start, pos), pos: start });
    }
  }
  tokens.push({ kind: "end", text: "", pos: text.length });
  return tokens;
}

function isWordBoundary(char: string): boolean {
  return WHITESPACE.test(char) || PUNCTUATION.has(char) || char === "'";
}

/** Reads a single-quoted string starting at `start` (the opening quote). */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let pos = start + 1;
  for (;;) {
    const close = text.indexOf("'", pos);
    if (close < 0) throw queryError("filter", "unterminated string", start);
    value += text.slice(pos, close);
    if (text[close + 1] !== "'") return { value, end: close + 1 };
    value += "'";
    pos = close + 2;
  }
}
