import { queryError } from "./errors";
import { isFieldFunction } from "./field-functions";
import { readQuoted } from "./syntax";

export { applyFieldFunction, FIELD_FUNCTIONS, isFieldFunction, type FieldFunctionOptions } from "./field-functions";

export type View = "all" | "most" | "summary" | "dashboard";

/**
 * One entry of a `fields` list. A function applies to the value at `path`;
 * `fnArgs` holds any further arguments as text. `sub` lists the fields wanted
 * from each row of a `rows`/`row` field (`drives[name,disksize]`).
 */
export type FieldSelection =
  | { kind: "field"; path: string[]; fn?: string; fnArgs?: string[]; alias: string; sub?: FieldSelection[] }
  | { kind: "view"; view: View };

const VIEWS = new Set<string>(["all", "most", "summary", "dashboard"]);
const WORD_CHAR = /[A-Za-z0-9_$#.-]/;
const WHITESPACE = /\s/;

/**
 * Parses a `fields` option: a comma list (commas inside `[...]` or `(...)`
 * do not split) whose entries are
 *   view                     all | most | summary | dashboard (case-insensitive)
 *   path [as alias]          name, machine#status#status as status, owner#$display
 *   path[list] [as alias]    groups[all] as all_groups, drives[name,disksize]
 *   fn(path, arg...) [as a]  count(members) as member_count, datetime(created)
 *   prefix#fn(path) [as a]   status#display(status): fn applies to prefix#path
 * The default alias is the last segment of the path (`machine#status#status`
 * → `status`, `count(members)` → `members`), so the output key is the field's
 * own name unless renamed. An empty option yields an empty list (the server's
 * default view applies).
 */
export function parseFields(text: string): FieldSelection[] {
  const parser = new FieldsParser(text);
  parser.skipWhitespace();
  if (parser.atEnd()) return [];
  return parser.parseList(undefined);
}

interface FieldExpression {
  path: string[];
  fn?: string;
  fnArgs?: string[];
  sub?: FieldSelection[];
}

class FieldsParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipWhitespace(): void {
    while (!this.atEnd() && WHITESPACE.test(this.text[this.pos])) this.pos++;
  }

  /** Entries up to `close` (consumed) or, at top level, the end of the text. */
  parseList(close: "]" | undefined): FieldSelection[] {
    const items: FieldSelection[] = [];
    for (;;) {
      this.skipWhitespace();
      items.push(this.parseEntry());
      this.skipWhitespace();
      const char = this.text[this.pos];
      if (char === ",") {
        this.pos++;
      } else if (close !== undefined && char === close) {
        this.pos++;
        return items;
      } else if (close === undefined && this.atEnd()) {
        return items;
      } else {
        throw this.unexpected(close ? `expected ',' or '${close}'` : "expected ','");
      }
    }
  }

  private parseEntry(): FieldSelection {
    const start = this.pos;
    const word = this.peekWord();
    const lower = word.toLowerCase();
    if (VIEWS.has(lower)) {
      const afterWord = this.pos + word.length;
      if (!/^\s*[([]/.test(this.text.slice(afterWord, afterWord + 64))) {
        this.pos = afterWord;
        if (this.readAlias() !== undefined) throw queryError("fields", `view '${lower}' cannot have an alias`, start);
        return { kind: "view", view: lower as View };
      }
    }
    const expression = this.parseExpression();
    const alias = this.readAlias() ?? expression.path[expression.path.length - 1];
    return { kind: "field", ...expression, alias };
  }

  /** `path`, `path[list]`, `fn(expression, args...)` or `prefix#fn(...)`. */
  private parseExpression(): FieldExpression {
    const nameStart = this.pos;
    const name = this.readWord("a field name");
    this.skipWhitespace();
    if (this.text[this.pos] === "(") {
      return this.parseCall(name, nameStart);
    }
    const path = splitPath(name, nameStart);
    if (this.text[this.pos] === "[") {
      this.pos++;
      return { path, sub: this.parseList("]") };
    }
    return { path };
  }

  private parseCall(name: string, nameStart: number): FieldExpression {
    const segments = name.split("#");
    const fn = segments.pop()!.toLowerCase();
    if (!isFieldFunction(fn)) throw queryError("fields", `unknown function '${fn}'`, nameStart);
    const prefix = segments.length ? splitPath(segments.join("#"), nameStart) : [];
    this.pos++; // "("
    this.skipWhitespace();
    const argumentStart = this.pos;
    const inner = this.parseExpression();
    if (inner.fn) throw queryError("fields", "functions cannot be nested", argumentStart);
    const fnArgs: string[] = [];
    for (;;) {
      this.skipWhitespace();
      const char = this.text[this.pos];
      if (char === ")") break;
      if (char !== ",") throw this.unexpected("expected ',' or ')'");
      this.pos++;
      this.skipWhitespace();
      fnArgs.push(this.text[this.pos] === "'" ? this.readQuoted() : this.readWord("an argument"));
    }
    this.pos++; // ")"
    this.skipWhitespace();
    return {
      path: [...prefix, ...inner.path],
      fn,
      ...(fnArgs.length ? { fnArgs } : {}),
      ...(inner.sub ? { sub: inner.sub } : {}),
    };
  }

  /** Consumes `as alias` if present. */
  private readAlias(): string | undefined {
    this.skipWhitespace();
    if (!/^as\s/i.test(this.text.slice(this.pos, this.pos + 3))) return undefined;
    this.pos += 2;
    this.skipWhitespace();
    return this.readWord("an alias after 'as'");
  }

  private peekWord(): string {
    let end = this.pos;
    while (end < this.text.length && WORD_CHAR.test(this.text[end])) end++;
    return this.text.slice(this.pos, end);
  }

  private readWord(what: string): string {
    const word = this.peekWord();
    if (!word) throw this.unexpected(`expected ${what}`);
    this.pos += word.length;
    return word;
  }

  private readQuoted(): string {
    const { value, end } = readQuoted(this.text, this.pos, "fields");
    this.pos = end;
    return value;
  }

  private unexpected(expectation: string): Error {
    if (this.atEnd()) return queryError("fields", `end of fields (${expectation})`, this.pos);
    const word = this.peekWord() || this.text[this.pos];
    return queryError("fields", `unexpected '${word}' (${expectation})`, this.pos);
  }
}

function splitPath(name: string, position: number): string[] {
  const path = name.split("#");
  if (path.some((segment) => segment === "")) throw queryError("fields", `invalid field path '${name}'`, position);
  return path;
}
