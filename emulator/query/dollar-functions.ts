import { toNumber } from "./values";

/**
 * `{$name(args)}` values of a filter, evaluated when a row is matched (not when
 * parsed) because parsed filters are cached across requests:
 * - `$now`: the current Unix time in seconds;
 * - `$add(a, b, ...)`: the sum of its numeric arguments;
 * - `$sub(a, b)`: a minus b.
 */
export const DOLLAR_FUNCTIONS = {
  $now: { arity: [0, 0], apply: (_args: number[], now: number) => now },
  $add: { arity: [2, Infinity], apply: (args: number[]) => args.reduce((sum, n) => sum + n, 0) },
  $sub: { arity: [2, 2], apply: (args: number[]) => args[0] - args[1] },
} as const;

export type DollarFunctionName = keyof typeof DOLLAR_FUNCTIONS;

export function isDollarFunction(name: string): name is DollarFunctionName {
  return Object.hasOwn(DOLLAR_FUNCTIONS, name);
}

export type Literal = string | number | boolean | null;

/** A filter value: a literal, or a `$`-function call evaluated per match. */
export type ValueNode =
  | { readonly kind: "literal"; readonly value: Literal }
  | { readonly kind: "call"; readonly name: DollarFunctionName; readonly args: readonly ValueNode[] };

/** What a match may depend on besides the row; `now` is Unix seconds. */
export interface MatchContext {
  now: number;
}

/** The value of a node; without a context, `$now` reads the clock (only when used). */
export function evaluateValue(node: ValueNode, context: MatchContext | undefined): Literal {
  if (node.kind === "literal") return node.value;
  const args = node.args.map((arg) => toNumber(evaluateValue(arg, context)) ?? Number.NaN);
  return DOLLAR_FUNCTIONS[node.name].apply(args, context?.now ?? Math.floor(Date.now() / 1000));
}
