// The codecs of the fields whose API form is no plain kind: each value goes out in the platform's
// form and comes back as declared, and what the platform holds otherwise reads as its own value.
import { dateCodec, headerLinesCodec, ipListCodec, jsonMemberCodec, ownerKeyCodec, timeOfDayCodec, weekdaysCodec } from "./fieldCodec";

describe("dates are Unix seconds; 0 is never (or absent)", () => {
  const expiry = dateCodec("expires", "expires_type");
  test("out", () => {
    expect(expiry.toApi("2030-01-01")).toEqual({ expires: 1893456000, expires_type: "date" });
    expect(expiry.toApi("never")).toEqual({ expires: 0, expires_type: "never" });
  });
  test("back: the declared text while the second matches, else the platform's date in ISO form", () => {
    expect(expiry.fromApi({ expires: 1893456000 }, "2030-01-01")).toBe("2030-01-01");
    expect(expiry.fromApi({ expires: "1893456000" }, "2030-01-01T00:00:00+00:00")).toBe("2030-01-01T00:00:00+00:00");
    expect(expiry.fromApi({ expires: 1893456001 }, "2030-01-01")).toBe("2030-01-01T00:00:01.000Z");
    expect(expiry.fromApi({ expires: 0 }, "2030-01-01")).toBe("never");
    expect(dateCodec("end_date").fromApi({ end_date: 0 }, undefined)).toBeUndefined();
    expect(expiry.fromApi({}, "never")).toBeUndefined();
  });
});

describe("IP lists are comma text of the enabled entries", () => {
  const list = ipListCodec("ip_allow_list");
  const declared = [
    { address: "10.0.0.1", enabled: true },
    { address: "10.0.0.2", enabled: false },
    { address: "::1", enabled: true },
  ];
  test("out: the enabled entries only", () => expect(list.toApi(declared)).toEqual({ ip_allow_list: "10.0.0.1,::1" }));
  test("back: as declared while the enabled ones match; the platform's entries (and the disabled ones) otherwise", () => {
    expect(list.fromApi({ ip_allow_list: "10.0.0.1, ::1" }, declared)).toEqual(declared);
    expect(list.fromApi({ ip_allow_list: "::1,10.0.0.1" }, declared)).toEqual([
      { address: "::1", enabled: true },
      { address: "10.0.0.1", enabled: true },
      { address: "10.0.0.2", enabled: false },
    ]);
    expect(list.fromApi({ ip_allow_list: "" }, undefined)).toEqual([]);
  });
});

describe("headers are Name: Value lines, in order", () => {
  const headers = headerLinesCodec("headers");
  test("out and back", () => {
    const list = [
      { name: "X-B", value: "2" },
      { name: "X-A", value: "a: b" },
    ];
    expect(headers.toApi(list)).toEqual({ headers: "X-B: 2\nX-A: a: b" });
    expect(headers.fromApi({ headers: "X-B: 2\r\n\nX-A:a: b\n" }, undefined)).toEqual(list);
    expect(headers.fromApi({ headers: "" }, undefined)).toEqual([]);
  });
});

describe("references and JSON members", () => {
  test("a key inside <table>/<key>", () => {
    const owner = ownerKeyCodec("owner", "webhook_urls");
    expect(owner.toApi("4")).toEqual({ owner: "webhook_urls/4" });
    expect([owner.fromApi({ owner: "webhook_urls/4" }, undefined), owner.fromApi({ owner: "vms/4" }, undefined)]).toEqual(["4", undefined]);
  });
  test("a string member of a JSON column", () => {
    const message = jsonMemberCodec("settings_args", "message");
    expect(message.toApi("m")).toEqual({ settings_args: { message: "m" } });
    expect([
      message.fromApi({ settings_args: { message: "m", x: 1 } }, undefined),
      message.fromApi({ settings_args: null }, undefined),
    ]).toEqual(["m", undefined]);
  });
});

describe("times of day and weekdays", () => {
  test("HH:MM is seconds after midnight; 24:00 the day's end", () => {
    const time = timeOfDayCodec("start_time_of_day");
    expect([time.toApi("00:00"), time.toApi("02:30"), time.toApi("24:00")]).toEqual([
      { start_time_of_day: 0 },
      { start_time_of_day: 9000 },
      { start_time_of_day: 86400 },
    ]);
    expect([time.fromApi({ start_time_of_day: 9000 }, undefined), time.fromApi({ start_time_of_day: "86400" }, undefined)]).toEqual([
      "02:30",
      "24:00",
    ]);
  });
  test("the listed days are the flags set", () => {
    const flags = weekdaysCodec.toApi(["monday", "sunday"]);
    expect(flags).toEqual({
      monday: true,
      tuesday: false,
      wednesday: false,
      thursday: false,
      friday: false,
      saturday: false,
      sunday: true,
    });
    expect(weekdaysCodec.fromApi({ ...flags, monday: "true", sunday: 1 }, undefined)).toEqual(["monday", "sunday"]);
    expect(weekdaysCodec.fromApi({ monday: true }, undefined)).toBeUndefined(); // not every day was read
  });
});
