// The bad-input rules of the automation resources, one describe per rule: each problem sits at
// the field's path, and its message names the field and says what to do.
import {
  apiKeyValueProblems,
  bearerTokenProblems,
  eventChoiceProblems,
  expiryProblems,
  headerProblems,
  ipListProblems,
  mediaPathProblems,
  messageVariableProblems,
  scheduleWindowProblems,
  webhookTimeoutProblems,
  type EventCatalog,
  type Problem,
} from "./automationRules";
import { isAddressOrCidr, isIpv6 } from "./ipAddress";

const paths = (problems: Problem[]) => problems.map((p) => p.path.join("."));

describe("an IP list entry is an address or a CIDR block, IPv4 or IPv6", () => {
  test.each([
    "10.0.0.5",
    "0.0.0.0",
    "255.255.255.255",
    "10.0.0.0/24",
    "10.0.0.0/0",
    "10.0.0.5/32",
    "::",
    "::1",
    "2001:db8::5",
    "2001:db8::/32",
    "fe80::1:2:3:4",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8/128",
    "::ffff:10.0.0.1",
    "64:ff9b::192.0.2.1/96",
    "2001:DB8::A",
  ])("%s is accepted", (entry) => expect(ipListProblems("ipAllowList", [{ address: entry }])).toEqual([]));

  test.each([
    "",
    "10.0.0",
    "10.0.0.256",
    "10.0.0.0/33",
    "10.0.0.0/",
    "10.0.0.0/24/8",
    "10.0.0.0/-1",
    "10.0.0.0/x",
    "host.example",
    "10.0.0.5 ",
    ":::",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "2001:db8::/129",
    "12345::",
    "g::1",
    "fe80::1%eth0",
    "::ffff:10.0.0.256",
    "1:2:3:4:5:6:7:1.2.3.4",
  ])("%j is refused, at its index, saying what to write", (entry) => {
    const found = ipListProblems("ipDenyList", [{ address: "10.0.0.1" }, { address: entry, enabled: false }]);
    expect(paths(found)).toEqual(["ipDenyList.1.address"]);
    expect(found[0].message).toContain(`'${entry}' is neither an IP address nor a CIDR block`);
    expect(found[0].message).toMatch(/write an address .* or a block/);
  });

  test("every wrong entry is reported, not only the first", () => {
    expect(paths(ipListProblems("ipAllowList", [{ address: "x" }, { address: "10.0.0.1" }, { address: "y" }]))).toEqual([
      "ipAllowList.0.address",
      "ipAllowList.2.address",
    ]);
  });

  test("the IPv6 parser counts groups with and without ::", () => {
    expect([isIpv6("1:2:3:4:5:6::"), isIpv6("::2:3:4:5:6:7:8"), isIpv6("1:2:3:4:5:6:7::8"), isIpv6("1:2:3:4:5:6:1.2.3.4")]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect([isAddressOrCidr("::/0"), isAddressOrCidr("::/1000")]).toEqual([true, false]);
  });
});

describe("an expiry lies in the future (the time is injected)", () => {
  const now = Date.parse("2030-06-01T12:00:00Z");
  test.each([undefined, "never", "2030-06-01T12:00:01Z", "2031-01-01"])("%s is accepted", (expires) =>
    expect(expiryProblems(expires, now)).toEqual([]),
  );
  test.each(["2030-06-01T12:00:00Z", "2030-06-01T11:59:59Z", "2020-01-01"])("%s (not after now) is refused", (expires) => {
    const found = expiryProblems(expires, now);
    expect(paths(found)).toEqual(["expires"]);
    expect(found[0].message).toBe(`expires ${expires} is in the past: give a later date, or "never" for a key that does not expire`);
  });
  test("a text that is no date is refused with the forms to write", () => {
    expect(expiryProblems("next tuesday", now)[0].message).toMatch(/^expires 'next tuesday' is no date: write an ISO date/);
  });
});

describe("a webhook timeout is 3 seconds or more (the spec)", () => {
  test.each([undefined, 3, 4, 120])("%s is accepted", (timeout) => expect(webhookTimeoutProblems(timeout)).toEqual([]));
  test.each([2, 0, -1, 2.9])("%s is refused", (timeout) => {
    const found = webhookTimeoutProblems(timeout);
    expect(paths(found)).toEqual(["timeout"]);
    expect(found[0].message).toBe(`timeout ${timeout} is below 3: the platform waits at least 3 seconds, so give 3 or more`);
  });
});

describe("a bearer token is given without the word Bearer (the spec)", () => {
  const at = ["authorization", "token"];
  test.each(["abc123", "bearerish-token", "tok Bearer"])("%j is accepted", (token) => expect(bearerTokenProblems(at, token)).toEqual([]));
  test.each(["Bearer abc123", "bearer abc", "BEARER\tabc", " Bearer abc", "Bearer"])("%j is refused", (token) => {
    const found = bearerTokenProblems(at, token);
    expect(paths(found)).toEqual(["authorization.token"]);
    expect(found[0].message).toBe("authorization.token starts with 'Bearer': give the token alone, the platform adds the word");
  });
});

describe("an API key value is the raw key, without a prefix (the spec)", () => {
  const at = ["authorization", "key"];
  test.each(["vpk_1_abcdef", "k-e-y", "abc=="])("%j is accepted", (key) => expect(apiKeyValueProblems(at, key)).toEqual([]));
  test.each([
    ["ApiKey abc", "ApiKey"],
    ["Bearer vpk_1", "Bearer"],
    ["Token: xyz", "Token:"],
    ["X-API-Key  abc", "X-API-Key"],
  ])("%j is refused naming %j", (key, prefix) => {
    const found = apiKeyValueProblems(at, key);
    expect(paths(found)).toEqual(["authorization.key"]);
    expect(found[0].message).toBe(`authorization.key has the prefix '${prefix}': give the raw key alone, without a prefix`);
  });
});

describe("every header has a name that is an HTTP token, and a one-line value", () => {
  test("named headers, empty values and repeated names are accepted", () => {
    expect(
      headerProblems([
        { name: "Content-Type", value: "application/json" },
        { name: "X-Empty", value: "" },
        { name: "X-Empty", value: "again" },
      ]),
    ).toEqual([]);
  });
  test.each([
    [{ name: "", value: "v" }, "headers.1.name", "headers[1] has no name: give the header's name (e.g. X-Source), or remove the entry"],
    [{ name: "   ", value: "v" }, "headers.1.name", "headers[1] has no name: give the header's name (e.g. X-Source), or remove the entry"],
    [
      { name: "X Source", value: "v" },
      "headers.1.name",
      "headers[1] name 'X Source' is not a valid header name: use letters, digits and - (no spaces or colons)",
    ],
    [
      { name: "X-A:", value: "v" },
      "headers.1.name",
      "headers[1] name 'X-A:' is not a valid header name: use letters, digits and - (no spaces or colons)",
    ],
    [
      { name: "X-A", value: "one\r\nX-Injected: two" },
      "headers.1.value",
      "headers[1] (X-A) value holds a line break: write it on one line",
    ],
  ])("%j is refused", (header, path, message) => {
    expect(headerProblems([{ name: "Accept", value: "*/*" }, header])).toEqual([
      { path: path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message },
    ]);
  });
});

describe("a task message uses only ${DATE}, ${TIMESTAMP}, ${RANDOM} and ${NAME}", () => {
  test.each([
    '{"message": "Webhook"}',
    '{"vm": "${NAME}", "at": ${TIMESTAMP}, "date": "${DATE}", "n": ${RANDOM}}',
    "no variables",
    "$NAME and $ {NAME} are text",
  ])("%j is accepted", (message) => expect(messageVariableProblems(message)).toEqual([]));
  test.each([
    ["${HOST}", "message uses ${HOST}: only ${DATE}, ${TIMESTAMP}, ${RANDOM}, ${NAME} are expanded, so remove or correct it"],
    ["${name}", "message uses ${name}: only ${DATE}, ${TIMESTAMP}, ${RANDOM}, ${NAME} are expanded, so remove or correct it"],
    [
      "${NAME} ${X} ${Y} ${X}",
      "message uses ${X}, ${Y}: only ${DATE}, ${TIMESTAMP}, ${RANDOM}, ${NAME} are expanded, so remove or correct them",
    ],
    ["${}", "message uses ${}: only ${DATE}, ${TIMESTAMP}, ${RANDOM}, ${NAME} are expanded, so remove or correct it"],
  ])("%j is refused", (message, expected) => expect(messageVariableProblems(message)).toEqual([{ path: ["message"], message: expected }]));
});

describe("an event trigger's type, event, object and tag fit the platform's catalog", () => {
  const catalog: EventCatalog = {
    vms: { events: ["created", "poweroff"], generic: false },
    vnets: { events: ["created"], generic: false },
    alarms: { events: ["raised", "lowered"], generic: true },
  };
  test.each([
    { type: "vms", event: "poweroff" },
    { type: "vms", event: "poweroff", object: "12" },
    { type: "vms", event: "created", tag: "3" },
    { type: "alarms", event: "raised" },
  ])("%j is accepted", (choice) => expect(eventChoiceProblems(choice, catalog)).toEqual([]));

  test("a type the platform does not have lists the types", () => {
    expect(eventChoiceProblems({ type: "vm", event: "poweroff" }, catalog)).toEqual([
      { path: ["type"], message: "type 'vm' is not an event type of the platform: use one of alarms, vms, vnets" },
    ]);
  });
  test("an event the type does not have lists the type's events", () => {
    expect(eventChoiceProblems({ type: "vnets", event: "poweroff" }, catalog)).toEqual([
      { path: ["event"], message: "event 'poweroff' is not an event of type vnets: use one of created" },
    ]);
  });
  test("an object or a tag given for a generic type is refused, each at its field", () => {
    expect(paths(eventChoiceProblems({ type: "alarms", event: "raised", object: "1" }, catalog))).toEqual(["object"]);
    expect(eventChoiceProblems({ type: "alarms", event: "raised", tag: "2" }, catalog)[0].message).toBe(
      "tag is given, but alarms is a generic type that applies to no tag: remove tag",
    );
  });
  test("a tag and an object both given are refused at tag", () => {
    expect(eventChoiceProblems({ type: "vms", event: "poweroff", object: "1", tag: "2" }, catalog)).toEqual([
      {
        path: ["tag"],
        message: "object and tag are both given: an event applies to one object or to the objects carrying a tag, so give one",
      },
    ]);
  });
  test("problems add up: a wrong event of a generic type with both narrowings", () => {
    expect(paths(eventChoiceProblems({ type: "alarms", event: "x", object: "1", tag: "2" }, catalog))).toEqual(["event", "object", "tag"]);
  });
  test("a type named like an Object.prototype member is no type", () => {
    expect(paths(eventChoiceProblems({ type: "constructor", event: "x" }, catalog))).toEqual(["type"]);
  });
});

describe("a schedule does not end before it starts", () => {
  test.each([
    [undefined, undefined],
    ["2030-01-01", undefined],
    [undefined, "2030-01-01"],
    ["2030-01-01", "2030-01-01"],
    ["2030-01-01T10:00:00Z", "2030-01-01T10:00:01Z"],
  ])("start %s, end %s is accepted", (start, end) => expect(scheduleWindowProblems(start, end)).toEqual([]));
  test.each([
    ["2030-01-02", "2030-01-01"],
    ["2030-01-01T10:00:01Z", "2030-01-01T10:00:00Z"],
  ])("start %s, end %s is refused at end", (start, end) => {
    expect(scheduleWindowProblems(start, end)).toEqual([
      { path: ["end"], message: `end ${end} is before start ${start}: give an end after the start, or leave end out for no end` },
    ]);
  });
});

describe("a media path is a file on the volume (given the listing of its directory)", () => {
  const listing = [
    { name: "ubuntu.iso", type: "file" },
    { name: "old", type: "directory" },
  ];
  test("a file listed in its directory is accepted", () => expect(mediaPathProblems("images/ubuntu.iso", "nas", listing)).toEqual([]));
  test.each([
    ["images/debian.iso", listing, "path 'images/debian.iso' is not on the volume 'nas'"],
    ["images/old", listing, "path 'images/old' is a directory on the volume 'nas'"],
    ["missing/ubuntu.iso", undefined, "path 'missing/ubuntu.iso' is not on the volume 'nas'"],
  ])("%s is refused at path", (path, entries, start) => {
    const found = mediaPathProblems(path, "nas", entries);
    expect(paths(found)).toEqual(["path"]);
    expect(found[0].message).toBe(`${start}: give the path of a file on it, relative to the volume's root (e.g. images/ubuntu.iso)`);
  });
});
