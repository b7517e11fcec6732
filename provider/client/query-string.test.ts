import { buildQueryString, encodeQueryValue, quoteLiteral } from "./query-string";

describe("buildQueryString", () => {
  test("no query, or only unset and empty options, gives no query string", () => {
    expect(buildQueryString(undefined)).toBe("");
    expect(buildQueryString({})).toBe("");
    expect(buildQueryString({ fields: "", filter: undefined })).toBe("");
  });

  test("options come in a fixed order whatever the object's key order", () => {
    expect(buildQueryString({ offset: 10, limit: 5, sort: "-created", filter: "a eq 1", fields: "name" })).toBe(
      "?fields=name&filter=a%20eq%201&sort=-created&limit=5&offset=10",
    );
  });

  test("spaces are %20, never +; $ and # are percent-encoded", () => {
    expect(buildQueryString({ fields: "$key,machine#status#status as status" })).toBe(
      "?fields=%24key%2Cmachine%23status%23status%20as%20status",
    );
  });

  test("a + in a value is encoded so the server cannot read it as a space", () => {
    expect(buildQueryString({ sort: "+name" })).toBe("?sort=%2Bname");
  });

  test("quotes and parentheses of filters are encoded (RFC 3986 strict)", () => {
    expect(buildQueryString({ filter: "(name eq 'a b') and x ne null" })).toBe(
      "?filter=%28name%20eq%20%27a%20b%27%29%20and%20x%20ne%20null",
    );
  });

  test("a limit of 0 (unlimited) is kept", () => {
    expect(buildQueryString({ limit: 0 })).toBe("?limit=0");
  });

  test.each([-1, 1.5, NaN])("limit and offset %s are refused", (n) => {
    expect(() => buildQueryString({ limit: n })).toThrow("limit must be a non-negative integer");
    expect(() => buildQueryString({ offset: n })).toThrow("offset must be a non-negative integer");
  });

  test("encoding round-trips through the standard decoder", () => {
    const value = "name eq 'O''Brien' & x#y $z + 100% ~!*()";
    expect(decodeURIComponent(encodeQueryValue(value))).toBe(value);
    expect(encodeQueryValue(value)).toMatch(/^[A-Za-z0-9%._~-]*$/);
  });
});

describe("quoteLiteral", () => {
  test("wraps in single quotes and doubles quotes inside", () => {
    expect(quoteLiteral("web")).toBe("'web'");
    expect(quoteLiteral("O'Brien's")).toBe("'O''Brien''s'");
    expect(quoteLiteral("")).toBe("''");
  });
});
