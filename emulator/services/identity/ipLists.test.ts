import { ipAllowed, isValidEntry, listContains, parseIpList } from "./ipLists";

describe("IP lists", () => {
  test("CIDR blocks and single addresses match", () => {
    expect(listContains(["10.0.0.0/8"], "10.2.3.4")).toBe(true);
    expect(listContains(["10.0.0.0/8"], "11.0.0.1")).toBe(false);
    expect(listContains(["192.168.1.5"], "192.168.1.5")).toBe(true);
    expect(listContains(["fd00::/8"], "fd12::1")).toBe(true);
    expect(listContains(["127.0.0.1"], "::ffff:127.0.0.1")).toBe(true);
  });

  test("with an allow list only listed addresses pass", () => {
    expect(ipAllowed(["10.0.0.0/8"], [], "10.1.1.1")).toBe(true);
    expect(ipAllowed(["10.0.0.0/8"], [], "127.0.0.1")).toBe(false);
  });

  test("an address on both lists is allowed (the allow list wins)", () => {
    expect(ipAllowed(["127.0.0.1"], ["127.0.0.0/8"], "127.0.0.1")).toBe(true);
  });

  test("an address only on the deny list is refused", () => {
    expect(ipAllowed([], ["127.0.0.0/8"], "127.0.0.1")).toBe(false);
    expect(ipAllowed([], ["10.0.0.0/8"], "127.0.0.1")).toBe(true);
  });

  test("lists parse from text, string arrays and {address, enabled} entries", () => {
    expect(parseIpList("10.0.0.1, 10.0.0.0/24")).toEqual(["10.0.0.1", "10.0.0.0/24"]);
    expect(
      parseIpList([
        { address: "1.2.3.4", enabled: true },
        { address: "5.6.7.8", enabled: false },
      ]),
    ).toEqual(["1.2.3.4"]);
    expect(() => parseIpList("300.1.1.1")).toThrow(/not an IP/);
  });

  test("entry validation rejects bad prefixes", () => {
    expect(isValidEntry("10.0.0.0/33")).toBe(false);
    expect(isValidEntry("10.0.0.0/x")).toBe(false);
    expect(isValidEntry("::1/128")).toBe(true);
  });
});
