import { parseFieldsCached, parseFilterCached, parseSortCached, QUERY_CACHE_SIZE } from "./cache";
import { QueryError } from "./errors";
import { LruCache } from "./lru";

describe("LruCache keeps the most recently used entries", () => {
  test("evicts the least recently used beyond capacity", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.get("a"); // a is now newer than b
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  test("setting an existing key replaces it without growing", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1);
    cache.set("a", 2);
    expect(cache.get("a")).toBe(2);
    expect(cache.size).toBe(1);
  });

  test("getOrCompute computes once per key", () => {
    const cache = new LruCache<string>(4);
    const compute = jest.fn((key: string) => key.toUpperCase());
    expect(cache.getOrCompute("x", compute)).toBe("X");
    expect(cache.getOrCompute("x", compute)).toBe("X");
    expect(compute).toHaveBeenCalledTimes(1);
  });
});

describe("cached parsers return the shared parse of the same text", () => {
  test.each([
    ["filter", parseFilterCached, "name eq 'cached-a'"],
    ["fields", parseFieldsCached, "name,cached_b"],
    ["sort", parseSortCached, "-cached_c"],
  ] as const)("%s", (_part, parse, text) => {
    const first = parse(text);
    expect(parse(text)).toBe(first);
    expect(parse(`${text} `)).not.toBe(first);
  });

  test("errors are thrown every time, not cached", () => {
    expect(() => parseFilterCached("name eq")).toThrow(QueryError);
    expect(() => parseFilterCached("name eq")).toThrow(QueryError);
  });

  test("the cache is bounded", () => {
    const first = parseSortCached("bounded_0");
    for (let index = 1; index <= QUERY_CACHE_SIZE; index++) parseSortCached(`bounded_${index}`);
    expect(parseSortCached("bounded_0")).not.toBe(first);
  });
});
