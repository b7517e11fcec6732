import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { generate } from "selfsigned";
import { ConfigError, type ProviderConfig, parseEndpoint, resolveProviderConfig } from "./provider-config";

const KEY = "k3y-secret-value";
const base = { "vplatform:endpoint": "https://127.0.0.1:8443", "vplatform:apiKey": KEY };
const resolve = (stack: Record<string, string>, env: NodeJS.ProcessEnv = {}) => resolveProviderConfig(stack, env);
const errorOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
};

let pem: string;
beforeAll(async () => {
  pem = (await generate([{ name: "commonName", value: "test-ca" }], { keyType: "ec", curve: "P-256" } as never)).cert;
});

describe("defaults", () => {
  test("an endpoint and an API key are enough; TLS is verified, the token header and timeout have defaults", () => {
    expect({ ...resolve(base) }).toEqual<ProviderConfig>({
      endpoint: "https://127.0.0.1:8443",
      apiKey: KEY,
      insecure: false,
      tokenHeader: "x-service-token",
      requestTimeoutMs: 30_000,
    });
  });
});

describe("sources", () => {
  test("stack config keys are namespaced vplatform:<setting> and win over the environment", () => {
    const c = resolve(
      { ...base, "vplatform:requestTimeoutMs": "5000" },
      { VPLATFORM_ENDPOINT: "https://other:1", VPLATFORM_REQUEST_TIMEOUT_MS: "9" },
    );
    expect(c.endpoint).toBe("https://127.0.0.1:8443");
    expect(c.requestTimeoutMs).toBe(5000);
  });

  test("every setting falls back to its VPLATFORM_* variable", () => {
    const c = resolve(
      {},
      {
        VPLATFORM_ENDPOINT: "https://platform.example:443",
        VPLATFORM_USERNAME: "ops",
        VPLATFORM_PASSWORD: "pw",
        VPLATFORM_INSECURE: "true",
        VPLATFORM_CA_CERT: pem,
        VPLATFORM_TOKEN_HEADER: "X-Yottabyte-Token",
        VPLATFORM_REQUEST_TIMEOUT_MS: "1234",
        VPLATFORM_REQUEST_BUDGET: "900",
      },
    );
    expect({ ...c }).toEqual({
      endpoint: "https://platform.example",
      username: "ops",
      password: "pw",
      insecure: true,
      caCert: pem,
      tokenHeader: "x-yottabyte-token",
      requestTimeoutMs: 1234,
      requestBudget: 900,
    });
    expect(resolve({}, { VPLATFORM_ENDPOINT: "https://h", VPLATFORM_API_KEY: "a" }).apiKey).toBe("a");
    expect(resolve({}, { VPLATFORM_ENDPOINT: "https://h", VPLATFORM_SESSION_TOKEN: "t" }).sessionToken).toBe("t");
  });

  test("a getter works like a map (the dynamic provider's req.config.get)", () => {
    const stack: Record<string, string> = base;
    expect(resolveProviderConfig((k) => stack[k], {}).apiKey).toBe(KEY);
  });

  test("empty values count as unset", () => {
    expect(resolve({ ...base, "vplatform:apiKey": "" }, { VPLATFORM_API_KEY: "from-env" }).apiKey).toBe("from-env");
  });
});

describe("credentials", () => {
  test("one kind wins: API key, then session token, then user name and password", () => {
    const all = { ...base, "vplatform:sessionToken": "t", "vplatform:username": "u", "vplatform:password": "p" };
    expect({ ...resolve(all) }).toMatchObject({ apiKey: KEY });
    expect(resolve(all)).not.toHaveProperty("sessionToken");
    const { "vplatform:apiKey": _, ...noKey } = all;
    expect(resolve(noKey)).toMatchObject({ sessionToken: "t" });
    expect(resolve(noKey)).not.toHaveProperty("username");
  });

  test("none at all names every way to provide one", () => {
    const e = errorOf(() => resolve({ "vplatform:endpoint": "https://h" }));
    expect(e.message).toMatch(
      /^no credentials: set vplatform:apiKey \(or VPLATFORM_API_KEY\), or vplatform:username and vplatform:password \(or VPLATFORM_USERNAME and VPLATFORM_PASSWORD\)/,
    );
    expect(e.message).toContain("vplatform:sessionToken (or VPLATFORM_SESSION_TOKEN)");
  });

  test("a user name without a password names the missing password, and the other way round", () => {
    expect(errorOf(() => resolve({ "vplatform:endpoint": "https://h", "vplatform:username": "u" })).message).toBe(
      "vplatform:password is not set (or VPLATFORM_PASSWORD); it is needed with vplatform:username",
    );
    expect(errorOf(() => resolve({ "vplatform:endpoint": "https://h", "vplatform:password": "hunter2" })).message).toBe(
      "vplatform:username is not set (or VPLATFORM_USERNAME); it is needed with vplatform:password",
    );
  });
});

describe("endpoint", () => {
  test("a missing endpoint names the setting and its variable", () => {
    expect(errorOf(() => resolve({ "vplatform:apiKey": KEY })).message).toBe("vplatform:endpoint is not set (or VPLATFORM_ENDPOINT)");
  });

  test.each([
    ["https://h:8443/", "https://h:8443"],
    ["https://h:8443/api", "https://h:8443"],
    ["https://h:8443/api/", "https://h:8443"],
    ["https://H.example", "https://h.example"],
    ["https://proxy/platform/api", "https://proxy/platform"],
  ])("%s is normalized to the origin the client appends /api to (%s)", (given, expected) => {
    expect(resolve({ ...base, "vplatform:endpoint": given }).endpoint).toBe(expected);
  });

  test.each([
    ["http://h", /must be an https:\/\/ URL/],
    ["h:8443", /has no scheme: write it as https:\/\/h:8443/],
    ["not a url", /has no scheme: write it as https:\/\/not a url/],
    ["127.0.0.1:28443", /has no scheme: write it as https:\/\/127\.0\.0\.1:28443/],
    ["https://exa mple.com", /is not a valid URL/],
    ["https://h/?x=1", /must not contain a query/],
  ])("%s is refused", (given, message) => {
    expect(errorOf(() => resolve({ ...base, "vplatform:endpoint": given })).message).toMatch(message);
  });

  test("credentials inside the URL are refused without repeating them", () => {
    const fail = (p: string): never => {
      throw new ConfigError(p);
    };
    const e = errorOf(() => parseEndpoint("https://admin:hunter2@h", fail));
    expect(e.message).toMatch(/must not contain credentials/);
    expect(e.message).not.toContain("hunter2");
  });
});

describe("TLS settings", () => {
  test.each([
    ["true", true],
    ["TRUE", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
    ["no", false],
  ])("insecure %s reads as %s", (text, expected) => expect(resolve({ ...base, "vplatform:insecure": text }).insecure).toBe(expected));

  test("insecure must be a boolean", () => {
    expect(errorOf(() => resolve({ ...base, "vplatform:insecure": "maybe" })).message).toBe("vplatform:insecure must be true or false");
  });

  test("caCert may be PEM text or the path of a PEM file", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-ca-")), "ca.pem");
    fs.writeFileSync(file, pem);
    expect(resolve({ ...base, "vplatform:caCert": pem }).caCert).toBe(pem);
    expect(resolve({ ...base, "vplatform:caCert": file }).caCert).toBe(pem);
  });

  test("a caCert that is neither PEM nor a readable PEM file is refused, naming the path", () => {
    expect(errorOf(() => resolve({ ...base, "vplatform:caCert": "/nonexistent/ca.pem" })).message).toBe(
      "vplatform:caCert is neither PEM text nor a readable file (ENOENT: /nonexistent/ca.pem)",
    );
    expect(errorOf(() => resolve({ ...base, "vplatform:caCert": "-----BEGIN CERTIFICATE-----\nshort" })).message).toBe(
      "vplatform:caCert is not a PEM certificate",
    );
    const notPem = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-ca-")), "ca.txt");
    fs.writeFileSync(notPem, "hello");
    expect(errorOf(() => resolve({ ...base, "vplatform:caCert": notPem })).message).toMatch(/names a file without a PEM certificate/);
  });

  test("the token header must be a header name", () => {
    expect(errorOf(() => resolve({ ...base, "vplatform:tokenHeader": "x token" })).message).toBe(
      "vplatform:tokenHeader must be an HTTP header name",
    );
  });
});

describe("numbers", () => {
  test.each(["0", "-1", "1.5", "ten"])("requestTimeoutMs and requestBudget %s are refused", (text) => {
    expect(errorOf(() => resolve({ ...base, "vplatform:requestTimeoutMs": text })).message).toBe(
      "vplatform:requestTimeoutMs must be a positive integer",
    );
    expect(errorOf(() => resolve({ ...base, "vplatform:requestBudget": text })).message).toBe(
      "vplatform:requestBudget must be a positive integer",
    );
  });

  test("requestBudget is unset unless given", () => {
    expect(resolve(base)).not.toHaveProperty("requestBudget");
    expect(resolve({ ...base, "vplatform:requestBudget": "50" }).requestBudget).toBe(50);
  });
});

describe("secrets", () => {
  const secrets = { ...base, "vplatform:sessionToken": "tok-secret", "vplatform:password": "pw-secret" };

  test("util.inspect and JSON.stringify of the config mask the credential, the value stays readable", () => {
    const c = resolve(secrets);
    expect(c.apiKey).toBe(KEY);
    expect(inspect(c)).not.toContain(KEY);
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(inspect(c)).toContain("[secret]");
    const basic = resolve({ "vplatform:endpoint": "https://h", "vplatform:username": "u", "vplatform:password": "pw-secret" });
    expect(`${inspect(basic)} ${JSON.stringify(basic)}`).not.toContain("pw-secret");
  });

  test("no error message repeats a configured secret", () => {
    const bads: Record<string, string>[] = [
      { "vplatform:endpoint": "ftp://h" },
      { "vplatform:insecure": "x" },
      { "vplatform:requestBudget": "x" },
      { "vplatform:caCert": "/nope" },
    ];
    for (const bad of bads) {
      const e = errorOf(() => resolve({ ...secrets, ...bad }));
      expect(`${e.message} ${inspect(e)}`).not.toMatch(/k3y-secret-value|tok-secret|pw-secret/);
    }
  });
});
