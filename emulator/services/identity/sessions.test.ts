import { SessionStore } from "./sessions";

describe("session tokens", () => {
  test("a token identifies its user until logout", () => {
    const store = new SessionStore();
    const { token } = store.create("admin");
    expect(store.use(token)).toBe("admin");
    expect(store.delete(token)).toBe(true);
    expect(store.use(token)).toBeUndefined();
  });

  test("a token expires after inactivity, and use keeps it alive", () => {
    let now = 0;
    const store = new SessionStore(() => now, 60);
    const { token } = store.create("admin");
    now = 50_000;
    expect(store.use(token)).toBe("admin");
    now = 100_000; // 50 s after the last use
    expect(store.use(token)).toBe("admin");
    now = 161_000; // 61 s idle
    expect(store.use(token)).toBeUndefined();
  });
});
