import { PlatformClock } from "./platformClock";

describe("the platform's clock is learned from the Date header of its answers", () => {
  let local = Date.parse("2026-11-26T12:00:00.400Z");
  const clock = () => new PlatformClock(() => local);

  test("before any answer it is the local clock, and not known", () => {
    const c = clock();
    expect([c.now(), c.known]).toEqual([local, false]);
  });

  test("an answer dated an hour ahead puts it an hour ahead, and it runs on with the local clock", () => {
    const c = clock();
    c.observe("Thu, 26 Nov 2026 13:00:00 GMT");
    expect([c.now(), c.known]).toEqual([Date.parse("2026-11-26T13:00:00Z"), true]);
    local += 5000;
    expect(c.now()).toBe(Date.parse("2026-11-26T13:00:05Z"));
  });

  test("the latest answer wins: a platform clock set back is followed", () => {
    const c = clock();
    c.observe("Thu, 26 Nov 2026 13:00:00 GMT");
    c.observe(new Date(local - 60_000).toUTCString());
    expect(Math.round((local - c.now()) / 1000)).toBe(60);
  });

  test("an absent or unreadable header teaches nothing", () => {
    const c = clock();
    c.observe(undefined);
    c.observe("yesterday");
    expect([c.now(), c.known]).toEqual([local, false]);
  });
});
