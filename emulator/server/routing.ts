/**
 * Splitting an `/api/...` URL path into its parts, refusing path tricks
 * (`..`, encoded slashes, control characters) with clear answers.
 */
import { ApiError } from "../core/errors";

export interface ApiPath {
  /** "v4" or "sys". */
  area: string;
  table: string;
  key?: string;
  /** Segments after the key (inline actions; unsupported → 404). */
  rest: string[];
  /** The path as written after /api, for messages ("/v4/vms/1"). */
  display: string;
  /** The path ended in a slash after the table (`/v4/volume_browser/`). */
  emptyKey: boolean;
}

const TABLE_NAME = /^[a-z][a-z0-9_]*$/;

export function parseApiPath(rawUrl: string): ApiPath {
  const pathname = rawUrl.split("?")[0];
  if (!pathname.startsWith("/api/")) throw new ApiError(404, `resource ${pathname} not found`);
  const raw = pathname.slice(4).split("/").slice(1);
  const segments = raw.map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new ApiError(400, `malformed percent-encoding in path segment '${segment}'`);
    }
    if (decoded === "." || decoded === ".." || /[/\\\u0000-\u001f]/.test(decoded)) {
      throw new ApiError(400, `invalid path segment '${segment}'`);
    }
    return decoded;
  });
  const display = `/${segments.join("/")}`;
  const [area, table, key, ...rest] = segments;
  if ((area !== "v4" && area !== "sys") || !table || !TABLE_NAME.test(table)) {
    throw new ApiError(404, `resource ${display} not found`);
  }
  const emptyKey = key === "" && rest.length === 0;
  if (rest.some((s) => s === "") || (key === "" && !emptyKey)) throw new ApiError(404, `resource ${display} not found`);
  return { area, table, key: key === "" ? undefined : key, rest, display, emptyKey };
}
