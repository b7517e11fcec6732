import { ApiClient, type ApiClientOptions } from "../client/api-client";
import { BatchReader } from "../client/batchReader";
import { ApiError } from "../client/errors";
import { resolveProviderConfig } from "../config/provider-config";
import type { PlatformApi } from "./platform";

/** The reconciler's view of the platform, on the real API client. */
export function platformApiFromConfig(
  get: (key: string) => string | undefined,
  options?: ApiClientOptions,
): PlatformApi & { client: ApiClient; reader: BatchReader } {
  const client = new ApiClient(resolveProviderConfig(get, process.env), options);
  const reader = new BatchReader((table, query) => client.list(table, query));
  return {
    client,
    reader,
    clock: client.clock,
    close: () => client.close(),
    list: (table, query) => client.list(table, query),
    // A read of one row with known fields joins the other reads of its table (a refresh: one GET per table, not per resource).
    get: async (table, key, fields) =>
      fields && /^\d+$/.test(key)
        ? (await reader.load(table, "$key", key, fields))[0]
        : client.get(table, key, fields ? { fields } : undefined),
    listWhere: (table, column, value, fields) => reader.load(table, column, value, fields),
    create: (table, body) => client.create(table, body),
    action: (table, body) => client.action(table, body),
    update: (table, key, body) => client.update(table, key, body),
    async remove(table, key) {
      try {
        await client.delete(table, key);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    },
  };
}
