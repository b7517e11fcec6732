/** Which query option a problem was found in; it prefixes every message. */
export type QueryPart = "filter" | "fields" | "sort";

/**
 * A malformed `filter`, `fields` or `sort` option. The server answers it with a
 * 400; the message names the option, the problem and the 0-based character
 * position, e.g. "filter: unexpected token 'xx' at 14".
 */
export class QueryError extends Error {
  override readonly name = "QueryError";
  constructor(
    message: string,
    readonly part?: QueryPart,
    readonly position?: number,
  ) {
    super(message);
  }
}

/** Builds the QueryError of one option, with the position in the message. */
export function queryError(part: QueryPart, problem: string, position?: number): QueryError {
  const where = position === undefined ? "" : ` at ${position}`;
  return new QueryError(`${part}: ${problem}${where}`, part, position);
}
