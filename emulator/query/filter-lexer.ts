import { readQuoted } from "./syntax";

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
      const string = readQuoted(text, pos, "filter");
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
