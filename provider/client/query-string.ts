export interface ListQuery {
  fields?: string;
  filter?: string;
  sort?: string;
  /** 0 means unlimited. */
  limit?: number;
  offset?: number;
}

const ORDER: (keyof ListQuery)[] = ["fields", "filter", "sort", "limit", "offset"];

/** RFC 3986 strict: encodeURIComponent leaves `!'()*` alone; space becomes %20, `$` %24, `#` %23, `+` %2B. */
export const encodeQueryValue = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `?fields=...&filter=...` in a fixed order; unset and empty options are left out (a limit of 0 is kept). */
export function buildQueryString(query: ListQuery | undefined): string {
  if (!query) return "";
  for (const k of ["limit", "offset"] as const) {
    const n = query[k];
    if (n !== undefined && !(Number.isInteger(n) && n >= 0)) throw new TypeError(`${k} must be a non-negative integer`);
  }
  const parts = ORDER.filter((k) => query[k] !== undefined && query[k] !== "").map((k) => `${k}=${encodeQueryValue(String(query[k]))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/** A filter string literal: single-quoted, quotes inside doubled (`O'Brien` → `'O''Brien'`). */
export const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** A filter literal for a key or value: numbers bare (the platform compares them numerically), text quoted. */
export const filterLiteral = (value: string) => (/^\d+$/.test(value) ? value : quoteLiteral(value));
