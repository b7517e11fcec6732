import { ApiClient, type ApiClientOptions } from "../../../provider/client/api-client";
import { RequestPacer } from "../../../provider/client/pacer";
import type { ProviderConfig } from "../../../provider/config/provider-config";
import type { TestServer } from "./https-test-server";

export const API_KEY = "vpk_live_S3CRET-api-key-0123456789";

/** A client of `server` that trusts its certificate, records retry delays instead of sleeping and has its own request ledger. */
export function clientFor(
  server: Pick<TestServer, "url" | "caCert">,
  config: Partial<ProviderConfig> = {},
  options: ApiClientOptions = {},
) {
  const delays: number[] = [];
  const events: { method: string; path: string; status: number }[] = [];
  const client = new ApiClient(
    {
      endpoint: server.url,
      apiKey: API_KEY,
      caCert: server.caCert,
      insecure: false,
      tokenHeader: "x-service-token",
      requestTimeoutMs: 5_000,
      ...config,
    },
    {
      pacer: new RequestPacer(),
      sleep: async (ms) => void delays.push(ms),
      onRequest: ({ method, path, status }) => events.push({ method, path, status }),
      ...options,
    },
  );
  return { client, delays, events };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the request to fail");
}
