import { parseApiPath } from "./routing";

describe("API path parsing", () => {
  test("table, key and query string", () => {
    expect(parseApiPath("/api/v4/vms/42?fields=most")).toMatchObject({ area: "v4", table: "vms", key: "42", rest: [] });
    expect(parseApiPath("/api/v4/vms/%24table")).toMatchObject({ table: "vms", key: "$table" });
    expect(parseApiPath("/api/sys/tokens/abc")).toMatchObject({ area: "sys", table: "tokens", key: "abc" });
  });

  test("a trailing slash means an empty key", () => {
    expect(parseApiPath("/api/v4/volume_browser/")).toMatchObject({ emptyKey: true, display: "/v4/volume_browser/" });
  });

  test("path tricks are refused", () => {
    expect(() => parseApiPath("/api/v4/vms/..")).toThrow(/invalid path segment/);
    expect(() => parseApiPath("/api/v4/vms/%2e%2e")).toThrow(/invalid path segment/);
    expect(() => parseApiPath("/api/v4/vms/a%2fb")).toThrow(/invalid path segment/);
    expect(() => parseApiPath("/api/v4/vms/%E0%A4%A")).toThrow(/malformed/);
    expect(() => parseApiPath("/api/v5/vms")).toThrow(/not found/);
    expect(() => parseApiPath("/api/v4/VMS;drop")).toThrow(/not found/);
  });
});
