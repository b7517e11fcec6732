import { evaluateValue, isDollarFunction, DOLLAR_FUNCTIONS, type Literal, type MatchContext, type ValueNode } from "./dollar-functions";
import { queryError } from "./errors";
import { tokenizeFilter, type Token } from "./filter-lexer";
import { likeToRegex } from "./like";
import { compileSafeRegex } from "./regex-guard";
import { FIELD_SEGMENT } from "./syntax";
import { compareValues, toNumber, toText } from "./values";

export type { Literal, MatchContext, ValueNode } from "./dollar-functions";

export type CompareOperator = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
export type TextOperator = "bw" | "ew" | "cs" | "ct";
export type PatternOperator = "like" | "rx";
export type FieldPath = readonly string[];

/**
 * Parsed filter. Treat it as immutable: parsed filters are cached and shared.
 * Text operators carry their needle ready to use (lower-cased for `ct`),
 * pattern operators their compiled RegExp.
 */
export type FilterExpr =
  | { readonly kind: "all" }
  | { readonly kind: "and" | "or"; readonly items: readonly FilterExpr[] }
  | { readonly kind: "compare"; readonly field: FieldPath; readonly op: CompareOperator; readonly value: ValueNode }
  | { readonly kind: "in"; readonly field: FieldPath; readonly values: readonly ValueNode[] }
  | { readonly kind: "text"; readonly field: FieldPath; readonly op: TextOperator; readonly needle: string }
  | { readonly kind: "pattern"; readonly field: FieldPath; readonly op: PatternOperator; readonly regex: RegExp };

const COMPARE_OPERATORS = new Set<string>(["eq", "ne", "gt", "ge", "lt", "le"]);
const TEXT_OPERATORS = new Set<string>(["bw", "ew", "cs", "ct"]);
const KEYWORDS = new Set<string>(["and", "or", "in", "like", "rx", "null", "true", "false", ...COMPARE_OPERATORS, ...TEXT_OPERATORS]);
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Parses a filter such as `enabled eq true and (name bw 'web' or ram gt 2048)`.
 *
 * Grammar (keywords case-insensitive; `and` binds tighter than `or`):
 *   or      := and ("or" and)*
 *   and     := primary ("and" primary)*
 *   primary := "(" or ")" | field op value | field "in" "(" value ("," value)* ")"
 *   value   := 'quoted' | number | true | false | null | bareword | "{" $fn ["(" value,... ")"] "}"
 * A bare word in value position is taken as text (tolerance for unquoted
 * strings). An empty filter matches every row.
 */
export function parseFilter(text: string): FilterExpr {
  const parser = new FilterParser(tokenizeFilter(text));
  if (parser.peek().kind === "end") return { kind: "all" };
  const expr = parser.parseOr();
  const rest = parser.peek();
  if (rest.kind !== "end") throw unexpected(rest);
  return expr;
}

class FilterParser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== "end") this.index++;
    return token;
  }

  private nextIsKeyword(keyword: string): boolean {
    const token = this.peek();
    return token.kind === "word" && token.text.toLowerCase() === keyword;
  }

  private expect(kind: Token["kind"]): Token {
    const token = this.next();
    if (token.kind !== kind) throw unexpected(token, `expected '${kind}'`);
    return token;
  }

  parseOr(): FilterExpr {
    return this.parseJunction("or", () => this.parseAnd());
  }

  private parseAnd(): FilterExpr {
    return this.parseJunction("and", () => this.parsePrimary());
  }

  private parseJunction(keyword: "and" | "or", parseItem: () => FilterExpr): FilterExpr {
    const items = [parseItem()];
    while (this.nextIsKeyword(keyword)) {
      this.next();
      items.push(parseItem());
    }
    return items.length === 1 ? items[0] : { kind: keyword, items };
  }

  private parsePrimary(): FilterExpr {
    const token = this.next();
    if (token.kind === "(") {
      const inner = this.parseOr();
      this.expect(")");
      return inner;
    }
    const field = parseFieldName(token);
    const operatorToken = this.next();
    const op = operatorToken.kind === "word" ? operatorToken.text.toLowerCase() : "";
    if (COMPARE_OPERATORS.has(op)) {
      return { kind: "compare", field, op: op as CompareOperator, value: this.parseValue() };
    }
    if (TEXT_OPERATORS.has(op)) {
      const needle = this.parseTextValue(op);
      return { kind: "text", field, op: op as TextOperator, needle: op === "ct" ? needle.toLowerCase() : needle };
    }
    if (op === "like") {
      return { kind: "pattern", field, op: "like", regex: likeToRegex(this.parseTextValue(op)) };
    }
    if (op === "rx") {
      const position = this.peek().pos;
      return { kind: "pattern", field, op: "rx", regex: compileSafeRegex(this.parseTextValue(op), position) };
    }
    if (op === "in") return { kind: "in", field, values: this.parseValueList() };
    throw unexpected(operatorToken, "expected an operator");
  }

  private parseValueList(): ValueNode[] {
    this.expect("(");
    const values: ValueNode[] = [];
    if (this.peek().kind === ")") {
      this.next();
      return values;
    }
    for (;;) {
      values.push(this.parseValue());
      const separator = this.next();
      if (separator.kind === ")") return values;
      if (separator.kind !== ",") throw unexpected(separator, "expected ',' or ')'");
    }
  }

  /** The operand of a text operator: any literal but null, as text. */
  private parseTextValue(op: string): string {
    const token = this.peek();
    const value = this.parseValue();
    if (value.kind !== "literal" || value.value === null) {
      throw queryError("filter", `operator '${op}' needs a text value`, token.pos);
    }
    return String(value.value);
  }

  private parseValue(): ValueNode {
    const token = this.next();
    if (token.kind === "string") return { kind: "literal", value: token.text };
    if (token.kind === "{") return this.parseDollarCall(token);
    if (token.kind !== "word") throw unexpected(token, "expected a value");
    return { kind: "literal", value: wordLiteral(token.text) };
  }

  /** `{$name}` or `{$name(arg, ...)}`, after the opening brace. */
  private parseDollarCall(open: Token): ValueNode {
    const nameToken = this.next();
    if (nameToken.kind !== "word" || !isDollarFunction(nameToken.text.toLowerCase())) {
      throw unexpected(nameToken, "expected a $-function ($now, $add, $sub)");
    }
    const name = nameToken.text.toLowerCase() as keyof typeof DOLLAR_FUNCTIONS;
    const args = this.peek().kind === "(" ? this.parseValueList() : [];
    this.expect("}");
    const [min, max] = DOLLAR_FUNCTIONS[name].arity;
    if (args.length < min || args.length > max) {
      throw queryError("filter", `${name} takes ${min === max ? min : `at least ${min}`} arguments, got ${args.length}`, open.pos);
    }
    for (const arg of args) {
      if (arg.kind === "literal" && toNumber(arg.value) === undefined) {
        throw queryError("filter", `${name} needs numeric arguments`, open.pos);
      }
    }
    return { kind: "call", name, args };
  }
}

function wordLiteral(word: string): Literal {
  if (NUMBER.test(word)) return Number(word);
  const lower = word.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (lower === "null") return null;
  return word;
}

/** A field name: `#`-joined segments of letters, digits, `_`, `$`, `.`, `-`. */
function parseFieldName(token: Token): string[] {
  if (token.kind !== "word" || KEYWORDS.has(token.text.toLowerCase()) || NUMBER.test(token.text)) {
    throw unexpected(token, "expected a field name");
  }
  const path = token.text.split("#");
  if (!path.every((segment) => FIELD_SEGMENT.test(segment))) {
    throw queryError("filter", `invalid field name '${token.text}'`, token.pos);
  }
  return path;
}

function unexpected(token: Token, expectation?: string): Error {
  const found = token.kind === "end" ? "end of filter" : `unexpected token '${token.text}'`;
  return queryError("filter", expectation ? `${found} (${expectation})` : found, token.pos);
}

/**
 * Whether a row matches. `resolve` returns the row's value at a field path
 * (the field split on '#', following joins); `context.now` fixes `{$now}`
 * (Unix seconds; default: the clock).
 */
export function matchesFilter(expr: FilterExpr, resolve: (path: string[]) => unknown, context?: MatchContext): boolean {
  switch (expr.kind) {
    case "all":
      return true;
    case "and":
      for (const item of expr.items) if (!matchesFilter(item, resolve, context)) return false;
      return true;
    case "or":
      for (const item of expr.items) if (matchesFilter(item, resolve, context)) return true;
      return false;
    case "compare":
      return compareMatches(expr.op, resolve(expr.field as string[]), evaluateValue(expr.value, context));
    case "in": {
      const actual = resolve(expr.field as string[]);
      return expr.values.some((value) => compareValues(actual, evaluateValue(value, context)) === 0);
    }
    case "text": {
      const actual = toText(resolve(expr.field as string[]));
      return actual !== undefined && textMatches(expr.op, actual, expr.needle);
    }
    case "pattern": {
      const actual = toText(resolve(expr.field as string[]));
      return actual !== undefined && expr.regex.test(actual);
    }
  }
}

function compareMatches(op: CompareOperator, actual: unknown, expected: Literal): boolean {
  const order = compareValues(actual, expected);
  switch (op) {
    case "eq":
      return order === 0;
    case "ne":
      return order !== 0;
    case "gt":
      return order !== undefined && order > 0;
    case "ge":
      return order !== undefined && order >= 0;
    case "lt":
      return order !== undefined && order < 0;
    case "le":
      return order !== undefined && order <= 0;
  }
}

function textMatches(op: TextOperator, actual: string, needle: string): boolean {
  switch (op) {
    case "bw":
      return actual.startsWith(needle);
    case "ew":
      return actual.endsWith(needle);
    case "cs":
      return actual.includes(needle);
    case "ct":
      return actual.toLowerCase().includes(needle);
  }
}
