/**
 * Validation of a job's `params` per query. Every field of a query is
 * expected (spec: "All params fields are expected"); a missing, unknown or
 * ill-typed field refuses the POST with 400 naming `params.<field>`, so no job
 * is created. Failures that depend on the volume's contents or state happen
 * later, in the job (status `error`).
 */
import { validationError } from "../../model/errors";
import type { DeleteParams, PasteParams, RenameParams } from "./fileOperations";
import { SORT_PATTERN, type GetDirParams } from "./listing";

export const QUERIES = { "get-dir": "Get directory", rename: "Rename", delete: "Delete", paste: "Paste" } as const;
export type Query = keyof typeof QUERIES;

export type ParamsOf = {
  "get-dir": GetDirParams;
  rename: RenameParams;
  delete: DeleteParams;
  paste: PasteParams;
};

/** Checks one value and returns it normalized, or returns an Invalid reason. */
type Check = (value: unknown, topVolume: string) => unknown;
class Invalid {
  constructor(readonly reason: string) {}
}

const text: Check = (v) => (typeof v === "string" ? v : new Invalid("must be a string"));
const count: Check = (v) => {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : new Invalid("must be a non-negative integer");
};
const paths: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === "string") ? v : new Invalid("must be a non-empty array of paths");

const SCHEMAS: { [Q in Query]: Record<keyof ParamsOf[Q], Check> } = {
  "get-dir": {
    dir: text,
    limit: count,
    offset: (v) => (v === null ? null : count(v, "")),
    filter: (v) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return new Invalid("must be an object with 'extensions'");
      const keys = Object.keys(v);
      const extensions = (v as Record<string, unknown>).extensions;
      if (keys.length !== 1 || typeof extensions !== "string") return new Invalid('must be {"extensions": "<comma list or empty>"}');
      return { extensions };
    },
    volume: (v, top) => (v === top ? v : new Invalid("must equal the top-level volume")),
    sort: (v) =>
      v === "" || (typeof v === "string" && SORT_PATTERN.test(v))
        ? v
        : new Invalid("must be '' or name, size or date with an optional + or -"),
  },
  rename: { path: text, name: text },
  delete: { paths },
  paste: {
    action: (v) => (v === "copy" || v === "move" ? v : new Invalid("must be copy or move")),
    sources: paths,
    destination: text,
  },
};

export function validateParams<Q extends Query>(query: Q, params: unknown, topVolume: string): ParamsOf[Q] {
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw validationError("params", "must be a JSON object");
  const schema = SCHEMAS[query] as Record<string, Check>;
  const given = params as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(schema, name)) throw validationError(`params.${name}`, `unknown parameter of ${query}`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(schema)) {
    if (!Object.hasOwn(given, name) || given[name] === undefined) throw validationError(`params.${name}`, "is required");
    const value = check(given[name], topVolume);
    if (value instanceof Invalid) throw validationError(`params.${name}`, value.reason);
    out[name] = value;
  }
  return out as unknown as ParamsOf[Q];
}
