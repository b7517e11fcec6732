export interface ListQuery {
  fields?: string;
  filter?: string;
  sort?: string;
  limit?: number;
  offset?: number;
}

/** `?fields=...&filter=...`: spaces as %20, `#`, `$` and `+` percent-encoded (the platform decodes both + and %20). */
export function buildQueryString(query: ListQuery | undefined): string {
  if (!query) return "";
  const parts = (Object.keys(query) as (keyof ListQuery)[])
    .filter((k) => query[k] !== undefined && query[k] !== "")
    .map((k) => `${k}=${encodeURIComponent(String(query[k]))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}
