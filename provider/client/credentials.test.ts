import type { ProviderConfig } from "../config/provider-config";
import { authHeadersFor, credentialSettingsOf, redactorFor, secretValuesOf } from "./credentials";
import { tlsHint, tlsOptionsFor } from "./tls-options";

const base: ProviderConfig = { endpoint: "https://h", insecure: false, tokenHeader: "x-service-token", requestTimeoutMs: 1000 };

describe("authHeadersFor", () => {
  test("an API key is a Bearer token", () => {
    expect(authHeadersFor({ ...base, apiKey: "k" })).toEqual({ authorization: "Bearer k" });
  });
  test("a session token goes in the configured token header", () => {
    expect(authHeadersFor({ ...base, sessionToken: "t" })).toEqual({ "x-service-token": "t" });
    expect(authHeadersFor({ ...base, sessionToken: "t", tokenHeader: "X-Other" })).toEqual({ "x-other": "t" });
  });
  test("user name and password are Basic credentials", () => {
    expect(authHeadersFor({ ...base, username: "admin", password: "p:w" })).toEqual({
      authorization: `Basic ${Buffer.from("admin:p:w").toString("base64")}`,
    });
  });
  test("the API key wins over the others", () => {
    expect(authHeadersFor({ ...base, apiKey: "k", sessionToken: "t", username: "u", password: "p" })).toEqual({
      authorization: "Bearer k",
    });
  });
});

describe("credentialSettingsOf: the settings an auth failure names are those of the credential sent", () => {
  test("an API key (it wins over the others)", () => {
    expect(credentialSettingsOf({ ...base, apiKey: "k", username: "u", password: "p" })).toBe("vplatform:apiKey / VPLATFORM_API_KEY");
  });
  test("a session token and its header", () => {
    expect(credentialSettingsOf({ ...base, sessionToken: "t" })).toBe(
      "vplatform:sessionToken / VPLATFORM_SESSION_TOKEN, vplatform:tokenHeader / VPLATFORM_TOKEN_HEADER",
    );
  });
  test("user name and password", () => {
    expect(credentialSettingsOf({ ...base, username: "admin", password: "x" })).toBe(
      "vplatform:username / VPLATFORM_USERNAME, vplatform:password / VPLATFORM_PASSWORD",
    );
  });
  test("none at all: every way to give one", () => {
    expect(credentialSettingsOf(base)).toBe(
      "vplatform:apiKey / VPLATFORM_API_KEY, vplatform:username / VPLATFORM_USERNAME, vplatform:password / VPLATFORM_PASSWORD",
    );
  });
});

describe("redaction", () => {
  test("every credential and the Basic encoding are replaced wherever they occur", () => {
    const config = { ...base, apiKey: "key123", username: "u", password: "pass123" };
    const redact = redactorFor(secretValuesOf(config));
    const basic = Buffer.from("u:pass123").toString("base64");
    expect(redact(`a key123 b pass123 c ${basic} d key123`)).toBe("a [redacted] b [redacted] c [redacted] d [redacted]");
  });
  test("a secret containing another is replaced whole", () => {
    expect(redactorFor(["abc", "xxabcxx"])("-xxabcxx-abc-")).toBe("-[redacted]-[redacted]-");
  });
  test("no secrets leaves text alone", () => {
    expect(redactorFor(secretValuesOf(base))("unchanged")).toBe("unchanged");
  });
});

describe("TLS options", () => {
  test("verification is on unless insecure is asked for", () => {
    expect(tlsOptionsFor({ insecure: false }).rejectUnauthorized).toBe(true);
    expect(tlsOptionsFor({ insecure: true }).rejectUnauthorized).toBe(false);
  });
  test("caCert is trusted in addition to the system roots", () => {
    const ca = tlsOptionsFor({ insecure: false, caCert: "PEM" }).certificateAuthority!;
    expect(ca[ca.length - 1]).toBe("PEM");
    expect(ca.length).toBeGreaterThan(1);
    expect(tlsOptionsFor({ insecure: false })).not.toHaveProperty("certificateAuthority");
  });
  test("verification failures get a hint naming the settings; other errors none", () => {
    for (const code of [
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "CERT_HAS_EXPIRED",
      "ERR_TLS_CERT_ALTNAME_INVALID",
    ]) {
      expect(tlsHint(code)).toMatch(/vplatform:caCert.*vplatform:insecure/);
    }
    expect(tlsHint("ECONNRESET")).toBeUndefined();
  });
});
