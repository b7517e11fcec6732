import {
  type ProviderConfig,
  SETTINGS_FROM_ENV_CLI,
  SETTINGS_FROM_VARIABLE,
  resolveProviderConfig,
  settingNaming,
} from "../config/provider-config";
import { credentialSettingsOf } from "./credentials";
import { ApiError, RequestBudgetExceeded, apiMessageOf, explained, formatApiError, settingsHint } from "./errors";
import { tlsHint } from "./tls-options";

const base: ProviderConfig = { endpoint: "https://h", insecure: false, tokenHeader: "x-service-token", requestTimeoutMs: 1000 };

describe("formatApiError", () => {
  test("method, path, status and the API's text", () => {
    expect(formatApiError(409, "POST", "/v4/vms", "VM with that name exists")).toBe("POST /v4/vms: 409 VM with that name exists");
  });
  test("without a text, the status alone", () => {
    expect(formatApiError(500, "GET", "/v4/vms/1")).toBe("GET /v4/vms/1: 500");
  });
  test("status 0 reads as no response", () => {
    expect(formatApiError(0, "GET", "/v4/vms", "ECONNRESET: socket hang up")).toBe("GET /v4/vms: no response ECONNRESET: socket hang up");
  });
});

describe("ApiError", () => {
  test("carries status, method, path, the API's text and the connection code", () => {
    const e = new ApiError(0, "PUT", "/v4/vms/3", "ETIMEDOUT: Timeout", "ETIMEDOUT");
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      name: "ApiError",
      status: 0,
      method: "PUT",
      path: "/v4/vms/3",
      apiMessage: "ETIMEDOUT: Timeout",
      code: "ETIMEDOUT",
    });
  });
});

describe("RequestBudgetExceeded", () => {
  test("names the request, the budget and the setting", () => {
    expect(new RequestBudgetExceeded(10, "GET", "/v4/vms").message).toBe(
      "GET /v4/vms: not sent, the request budget of 10 requests (vplatform:requestBudget) is used up",
    );
  });
});

describe("apiMessageOf", () => {
  test("err (validation errors) first, then error (operation errors), then message", () => {
    expect(apiMessageOf('{"err":"Validation error on field: \'ram\'"}')).toBe("Validation error on field: 'ram'");
    expect(apiMessageOf('{"error":"cannot power on, already running"}')).toBe("cannot power on, already running");
    expect(apiMessageOf('{"err":true,"message":"denied"}')).toBe("denied");
  });
  test("no text field gives undefined", () => {
    expect(apiMessageOf("{}")).toBeUndefined();
    expect(apiMessageOf("[1]")).toBeUndefined();
    expect(apiMessageOf("null")).toBeUndefined();
    expect(apiMessageOf("")).toBeUndefined();
  });
  test("a body that is not JSON is quoted, trimmed and cut at 200 characters", () => {
    expect(apiMessageOf(" Bad Gateway \n")).toBe("Bad Gateway");
    expect(apiMessageOf("x".repeat(500))).toHaveLength(200);
  });
});

describe("explained: failures name the operation, the platform's answer and the next step", () => {
  test("no answer to a create: it may exist and the next up finds it", () => {
    const e = explained(
      new ApiError(0, "POST", "/v4/vms", "ETIMEDOUT: Timeout awaiting 'request' for 30000ms", "ETIMEDOUT"),
      "create",
      "VirtualMachine 'web'",
    );
    expect(e.message).toMatch(/^vplatform: creating VirtualMachine 'web': POST \/v4\/vms: no response ETIMEDOUT/);
    expect(e.message).toContain("the next `pulumi up` finds it");
  });

  test.each([
    [409, "VM with that name exists", "free the name"],
    [409, "operation in progress", "wait for it to finish"],
    [422, "ram: out of range", "fix the field"],
    [401, "unauthorized", "fix the credentials"],
    [507, "insufficient storage", "free space"],
    [503, "unavailable", "re-running `pulumi up` is safe"],
  ])("%i %s → %s", (status, text, step) => {
    expect(explained(new ApiError(status, "PUT", "/v4/vms/1", text), "update", "VirtualMachine 'web'").message).toContain(step);
  });

  test("our own errors that already say what to do pass unchanged", () => {
    const own = new Error("vplatform: timed out after 60s waiting for VM 'web' to reach running; raise timeouts.powerChange");
    expect(explained(own, "update", "VirtualMachine 'web'")).toBe(own);
  });
});

describe("every operation's failure carries its next step", () => {
  test.each([
    ["create", "it may have been created"],
    ["read", "a read changes nothing"],
    ["update", "it may have been applied"],
    ["delete", "re-running the destroy"],
  ] as const)("%s: a 503 says what happened and what to do", (op, said) => {
    const e = explained(new ApiError(503, "GET", "/v4/task_schedules/4", "busy"), op, "Schedule 'nightly' (key 4)");
    expect(e.message).toMatch(new RegExp(`^vplatform: \\w+ing Schedule 'nightly' \\(key 4\\): .*503.*\\. Next: .*${said}`));
  });
});

describe("a failure's next step fits its operation", () => {
  test.each([503, 429, 507, 0])("a deletion's failure (%i) says to re-run the destroy, never `pulumi up` alone", (status) => {
    const e = explained(
      new ApiError(status, "DELETE", "/v4/vms/7", "x", status === 0 ? "ETIMEDOUT" : undefined),
      "delete",
      "VirtualMachine 'web'",
    );
    expect(e.message).toMatch(/re-run the destroy/i);
    expect(e.message).not.toMatch(/re-run `pulumi up`(?! that)/i);
  });

  test("a deletion refused as in use says to delete or detach the others, not to free a name", () => {
    const e = explained(new ApiError(409, "DELETE", "/v4/vnets/3", "vnet in use by 2 NIC(s)"), "delete", "Vnet 'lan'");
    expect(e.message).toContain("still in use by others");
    expect(e.message).not.toContain("free the name");
  });

  test.each([503, 0])("an action's failure (%i) speaks of the action, not of rows and markers", (status) => {
    const e = explained(
      new ApiError(status, "POST", "/v4/vm_actions", "x", status === 0 ? "ETIMEDOUT" : undefined),
      "action",
      "VmPower (key 7)",
    );
    expect(e.message).toMatch(/^vplatform: applying VmPower \(key 7\): .*the action may have been taken/);
    expect(e.message).not.toMatch(/created|marker|takes it over/);
  });
});

describe("under `vplatform env` the hints name its own settings: VPLATFORM_* variables, never stack config or --run-program", () => {
  const envCli = settingNaming({ [SETTINGS_FROM_VARIABLE]: SETTINGS_FROM_ENV_CLI });
  const settings = { endpoint: "https://10.0.0.5:8443", credentials: credentialSettingsOf({ ...base, apiKey: "k" }, envCli) };

  test("a refused credential names the variable in use", () => {
    const hint = settingsHint(401, undefined, settings, envCli);
    expect(hint).toBe(
      "the platform refused the credentials: check VPLATFORM_API_KEY, and that the key's IP allow list (if any) lists this machine's address",
    );
  });
  test("an endpoint where nothing answers names VPLATFORM_ENDPOINT", () => {
    expect(settingsHint(0, "ECONNREFUSED", settings, envCli)).toBe(
      "nothing was sent, nothing answers at https://10.0.0.5:8443: check VPLATFORM_ENDPOINT",
    );
  });
  test("a certificate not verified names VPLATFORM_CA_CERT and VPLATFORM_INSECURE", () => {
    expect(tlsHint("DEPTH_ZERO_SELF_SIGNED_CERT", envCli)).toBe(
      "the server certificate could not be verified: set VPLATFORM_CA_CERT to the platform's CA (PEM or file), or VPLATFORM_INSECURE to true",
    );
  });
  test("a setting missing or wrong names its variable", () => {
    const env = { [SETTINGS_FROM_VARIABLE]: SETTINGS_FROM_ENV_CLI };
    expect(() => resolveProviderConfig({}, env)).toThrow(/^VPLATFORM_ENDPOINT is not set$/);
    expect(() => resolveProviderConfig({}, { ...env, VPLATFORM_ENDPOINT: "https://p" })).toThrow(
      /^no credentials: set VPLATFORM_API_KEY, or VPLATFORM_USERNAME and VPLATFORM_PASSWORD, or VPLATFORM_SESSION_TOKEN$/,
    );
    expect(() => resolveProviderConfig({}, { ...env, VPLATFORM_ENDPOINT: "https://p", VPLATFORM_USERNAME: "u" })).toThrow(
      /^VPLATFORM_PASSWORD is not set; it is needed with VPLATFORM_USERNAME$/,
    );
    expect(() =>
      resolveProviderConfig({}, { ...env, VPLATFORM_ENDPOINT: "https://p", VPLATFORM_API_KEY: "k", VPLATFORM_INSECURE: "maybe" }),
    ).toThrow(/^VPLATFORM_INSECURE must be true or false$/);
  });
  test("a Pulumi program's provider (no mark) keeps naming the stack config and its variable", () => {
    expect(() => resolveProviderConfig({}, {})).toThrow(/^vplatform:endpoint is not set \(or VPLATFORM_ENDPOINT\)$/);
    expect(tlsHint("DEPTH_ZERO_SELF_SIGNED_CERT", settingNaming({}))).toContain("set vplatform:caCert");
  });
});

describe("settingsHint: a failure that is the configuration's names the setting to fix", () => {
  const settings = { endpoint: "https://10.0.0.5:8443", credentials: "vplatform:apiKey / VPLATFORM_API_KEY" };

  test("401 names the credential settings in use, and --run-program for refresh and destroy", () => {
    const hint = settingsHint(401, undefined, settings);
    expect(hint).toContain("check vplatform:apiKey / VPLATFORM_API_KEY");
    expect(hint).toContain("--run-program");
  });

  test.each(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH"])("%s: nothing was sent; names the endpoint and vplatform:endpoint", (code) => {
    const hint = settingsHint(0, code, settings);
    expect(hint).toContain("nothing was sent, nothing answers at https://10.0.0.5:8443: check vplatform:endpoint / VPLATFORM_ENDPOINT");
    expect(hint).toContain("--run-program");
  });

  test.each([
    [0, "ECONNRESET"],
    [0, "ETIMEDOUT"],
    [500, undefined],
    [403, undefined],
  ])("%i %s is the platform's, not a setting's: no hint", (status, code) => {
    expect(settingsHint(status, code, settings)).toBeUndefined();
  });

  test("a create refused at the connection says nothing was sent, not that it may have been created", () => {
    const hint = settingsHint(0, "ECONNREFUSED", settings);
    const refused = new ApiError(0, "POST", "/v4/vms", "ECONNREFUSED: connect ECONNREFUSED", "ECONNREFUSED", hint);
    const e = explained(refused, "create", "VirtualMachine 'web'");
    expect(e.message).toContain("nothing was sent");
    expect(e.message).not.toMatch(/may have been|may still appear/);
  });
});
