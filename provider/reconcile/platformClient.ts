import { ApiClient } from "../client/api-client";
import { ApiError } from "../client/errors";
import { resolveProviderConfig } from "../config/provider-config";
import type { PlatformApi } from "./platform";
import { setPlatformApiFactory } from "./runtime";

/** The reconciler's view of the platform, on the real API client. */
export function platformApiFromConfig(get: (key: string) => string | undefined): PlatformApi & { client: ApiClient } {
  const client = new ApiClient(resolveProviderConfig(get, process.env));
  return {
    client,
    close: () => client.close(),
    list: (table, query) => client.list(table, query),
    get: (table, key, fields) => client.get(table, key, fields ? { fields } : undefined),
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

setPlatformApiFactory(platformApiFromConfig);
