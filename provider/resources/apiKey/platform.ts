/**
 * API keys on the platform. The secret is answered once, by the POST: it is
 * handed back as a SecretText and goes nowhere else (the client's request
 * events carry method, path and status only; bodies are never logged). An
 * expired key is gone as far as a program is concerned: it authenticates no
 * more, and the platform deletes it when it is next used.
 */
import { API_KEY_OUTPUT_COLUMNS, type ApiKeyInputs } from "./schema";
import type { PlatformApi, Row } from "../../reconcile/platform";
import { createRow, deleteRow, readRow, type CreateOptions, type RowMapping } from "../../reconcile/automation/rows";
import { SecretText } from "../../reconcile/automation/secretText";

/** The key's row (the declaration derives it: apiKey/resource.ts). */
export type ApiKeyRows = RowMapping<ApiKeyInputs>;

/** The key's read-only columns (created, last login) are read with its inputs: the outputs come from the same GET. */
const withOutputColumns = (rows: ApiKeyRows): ApiKeyRows => ({
  ...rows,
  readFields: [rows.readFields, ...Object.values(API_KEY_OUTPUT_COLUMNS)].join(","),
});

export interface ApiKeyState {
  inputs: Partial<ApiKeyInputs>;
  created: number;
  lastLoginStamp: number;
  lastLoginIp: string;
}

export interface ApiKeyCreateOptions extends Omit<CreateOptions, "lookFirst"> {
  /** The key's user was created in this session: it holds no key of an earlier attempt, so nothing is looked for first. */
  newUser?: boolean;
}

/**
 * Creates the key. A key an interrupted attempt made (its answer, and with it
 * the secret, lost) is useless: it is deleted and the key created again. A key
 * answered without its secret is deleted too, and the create fails. Key names
 * need not be unique, so such a key is looked for before the first send,
 * unless its user is new (a class's keys, each of a user made in the same run).
 */
export async function createApiKey(
  api: PlatformApi,
  apiKeyRows: ApiKeyRows,
  inputs: ApiKeyInputs,
  { newUser, ...opts }: ApiKeyCreateOptions,
): Promise<{ key: string; secret: SecretText }> {
  let created = await createRow(api, apiKeyRows, inputs, { ...opts, lookFirst: !newUser });
  if (created.recovered) {
    await deleteRow(api, apiKeyRows.table, created.key);
    created = await createRow(api, apiKeyRows, inputs, opts);
  }
  const secret = created.response?.token ?? created.response?.private_key;
  if (typeof secret !== "string" || secret === "") {
    await deleteRow(api, apiKeyRows.table, created.key);
    const what = `the platform created the API key '${inputs.name}' but answered no secret`;
    throw new Error(`vplatform: ${what}; the key was deleted again: run the update again`);
  }
  return { key: created.key, secret: new SecretText(secret) };
}

/**
 * The key as the platform holds it, or undefined when it is gone or expired at `now()`: the platform's time,
 * asked after the read, whose answer tells it.
 */
export async function readApiKey(
  api: PlatformApi,
  apiKeyRows: ApiKeyRows,
  key: string,
  now: () => number,
  declared?: Partial<ApiKeyInputs>,
): Promise<ApiKeyState | undefined> {
  const found = await readRow(api, withOutputColumns(apiKeyRows), key, declared);
  if (!found || hasExpired(found.row, now())) return undefined;
  return {
    inputs: found.inputs,
    created: Number(found.row[API_KEY_OUTPUT_COLUMNS.created] ?? 0),
    lastLoginStamp: Number(found.row[API_KEY_OUTPUT_COLUMNS.lastLoginStamp] ?? 0),
    lastLoginIp: String(found.row[API_KEY_OUTPUT_COLUMNS.lastLoginIp] ?? ""),
  };
}

export function hasExpired(row: Row, nowMs: number): boolean {
  const expires = Number(row.expires ?? 0);
  return expires > 0 && expires * 1000 <= nowMs;
}
