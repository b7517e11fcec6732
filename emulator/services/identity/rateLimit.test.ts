import { RateLimiter } from "./rateLimit";

describe("rate limit", () => {
  test("requests past the hourly budget wait until the window ends", () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.take("k")).toBe(0);
    expect(limiter.take("k")).toBe(0);
    now = 600_000;
    expect(limiter.take("k")).toBe(3000);
    expect(limiter.take("other")).toBe(0);
    now = 3_600_000;
    expect(limiter.take("k")).toBe(0);
  });
});
