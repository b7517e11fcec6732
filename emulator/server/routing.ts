/**
 * The paths of the API: the route parameters and query options with their schemas (one rule per name,
 * from which the route schemas and their error messages derive), and the parsing of a raw `/api/...`
 * path for requests before or without a route (counting, faults, unknown paths), refusing path tricks
 * (`..`, encoded slashes, control characters) with clear answers.
 */
import { ApiError } from "../model/errors";

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

/** What per-table plugins know of a request: its table ("" when the path names none) and row key. */
export interface ApiTarget {
  table: string;
  key?: string;
}

const TABLE_NAME = /^[a-z][a-z0-9_]*$/;
/** A decoded path segment that is no path trick (empty: a trailing slash, which routes answer 404). */
const SEGMENT = "^(?!\\.\\.?$)[^/\\\\\\u0000-\\u001f]*$";

const PATH_SEGMENT = {
  schema: { type: "string", pattern: SEGMENT },
  message: "must be one path segment (no slash, dots or control characters)",
};
const COUNT = { schema: { type: "string", pattern: "^\\d*$" }, message: "must be a non-negative integer" };

/** Each route parameter and query option: its JSON schema and the message when a value breaks it. */
const RULES = {
  table: { schema: { type: "string" }, message: "must be a table name" },
  key: PATH_SEGMENT,
  action: PATH_SEGMENT,
  token: PATH_SEGMENT,
  limit: COUNT,
  offset: COUNT,
} as const;

type RuleName = keyof typeof RULES;

/** An object schema of the given names (all required for path parameters; query options stay optional). */
export function schemaOf(names: RuleName[], required: boolean) {
  return {
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, RULES[name].schema])),
    ...(required ? { required: names } : {}),
  };
}

/** The route schemas' error answer: 400 naming the parameter or option and what it must be. */
export function schemaError(errors: { instancePath: string }[]): ApiError {
  const name = (errors[0]?.instancePath ?? "").slice(1) as RuleName;
  const message = Object.hasOwn(RULES, name) ? RULES[name].message : "is invalid";
  return new ApiError(400, `Validation error on field: '${name}' - '${message}'`, "err");
}

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
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a path segment with a control character is refused
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

/** The table and key of a request path; table "" when the path is no valid API path. */
export function targetOf(rawUrl: string): ApiTarget {
  try {
    const { table, key } = parseApiPath(rawUrl);
    return { table, key };
  } catch {
    return { table: "" };
  }
}
