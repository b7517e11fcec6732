import {
  durationsToKeep,
  formatDurations,
  LearnedDurations,
  MAX_TEXT_LENGTH,
  parseDurations,
  priorOfRestore,
  quickestOf,
} from "./learnedDurations";

describe("what a session knows of how long each kind of change takes", () => {
  test("nothing until a change of the kind is seen to end or an earlier process's figure is given", () => {
    const d = new LearnedDurations();
    expect(d.of("restore")).toBeUndefined();
    expect(d.known()).toEqual({});
  });

  test("a given figure is expected until this session sees its own", () => {
    const d = new LearnedDurations();
    d.remember({ restore: 70_000 });
    expect(d.of("restore")).toBe(70_000);
    d.seen("restore", 90_000); // slower now: this session's figure wins, though it is longer
    expect(d.of("restore")).toBe(90_000);
    expect(d.known()).toEqual({ restore: 90_000 });
  });

  test("within a session the quickest end seen is kept", () => {
    const d = new LearnedDurations();
    d.seen("shutdown", 30_000);
    d.seen("shutdown", 34_000);
    d.seen("shutdown", 28_000);
    expect(d.of("shutdown")).toBe(28_000);
  });

  test("kinds are independent, and known() lists them in order: what was given and what was seen", () => {
    const d = new LearnedDurations();
    d.remember({ shutdown: 3000, restore: 70_000 });
    d.seen("power-on", 20_000);
    expect(Object.entries(d.known())).toEqual([
      ["power-on", 20_000],
      ["restore", 70_000],
      ["shutdown", 3000],
    ]);
  });
});

describe("what a session expects of a kind it has neither seen nor been given (a first reset's restores)", () => {
  test("the expectation stands until a figure is given or seen, says why, and is never kept", () => {
    const d = new LearnedDurations();
    d.expect("restore", 72_000, "as a clone and a power-on took in the up");
    expect(d.of("restore")).toBe(72_000);
    expect(d.basisOf("restore")).toBe("as a clone and a power-on took in the up");
    expect(d.known()).toEqual({}); // a guess is not written back to the stack as if seen
    d.seen("restore", 75_000);
    expect(d.of("restore")).toBe(75_000);
    expect(d.basisOf("restore")).toBe("as seen before");
    expect(d.known()).toEqual({ restore: 75_000 });
  });

  test("a figure an earlier process gave wins over the expectation", () => {
    const d = new LearnedDurations();
    d.remember({ restore: 70_000 });
    d.expect("restore", 90_000, "guessed");
    expect(d.of("restore")).toBe(70_000);
    expect(d.basisOf("restore")).toBe("as seen before");
  });

  test("an expectation that is not a positive duration is none", () => {
    const d = new LearnedDurations();
    d.expect("restore", 0, "x");
    d.expect("restore", Number.NaN, "x");
    expect(d.of("restore")).toBeUndefined();
  });
});

describe("a restore with power-on, before one was seen: about a clone plus a power-on", () => {
  test("the sum of the clone and the power-on the up saw", () => {
    expect(priorOfRestore({ clone: 51_000, "power-on": 21_000, snapshot: 31_000 })).toBe(72_000);
  });

  test("nothing when either was not seen (over before the first read: lab speed)", () => {
    expect(priorOfRestore({ clone: 51_000 })).toBeUndefined();
    expect(priorOfRestore({ "power-on": 21_000 })).toBeUndefined();
    expect(priorOfRestore({})).toBeUndefined();
  });

  test("a power-on over by its first read stands in by that read's time; a clone's bound alone does not (lab speed)", () => {
    expect(priorOfRestore({ clone: 2_700, "power-on at most": 2_100 })).toBe(4_800);
    expect(priorOfRestore({ clone: 2_700, "power-on": 1_500, "power-on at most": 2_100 })).toBe(4_200);
    expect(priorOfRestore({ "clone at most": 260, "power-on at most": 300 })).toBeUndefined();
  });

  test("a session records the bound of a kind never seen to end, apart from what it knows (never kept, never scheduled on)", () => {
    const d = new LearnedDurations();
    d.seen("clone", 2_700);
    d.overBy("power-on", 2_400);
    d.overBy("power-on", 2_100);
    d.overBy("clone", 300); // seen to end: its bound adds nothing
    expect(d.knownAndBounds()).toEqual({ clone: 2_700, "power-on at most": 2_100 });
    expect(d.known()).toEqual({ clone: 2_700 });
    expect(d.of("power-on")).toBeUndefined();
  });

  test("over several records, the quickest of each kind", () => {
    expect(quickestOf([{ clone: 52_000, "power-on": 20_500 }, { clone: 50_500 }, {}])).toEqual({ clone: 50_500, "power-on": 20_500 });
    expect(quickestOf([])).toEqual({});
  });
});

describe("the durations kept with a stack, as text", () => {
  test("whole milliseconds, kinds in order; nothing known is an empty object", () => {
    expect(formatDurations({ shutdown: 3000.4, restore: 70_123.6 })).toBe('{"restore":70124,"shutdown":3000}');
    expect(formatDurations({})).toBe("{}");
  });

  test("figures that are not a positive duration are left out", () => {
    expect(formatDurations({ a: 0, b: -5, c: Number.NaN, d: Number.POSITIVE_INFINITY, e: 10 })).toBe('{"e":10}');
  });

  test("never longer than a stack tag holds: the longest-named kinds are dropped first", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`kind ${"x".repeat(i)}`, 1000 + i]));
    const text = formatDurations(many);
    expect(text.length).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
    const kept = parseDurations(text);
    expect(kept["kind "]).toBe(1000);
    const longestKept = Math.max(...Object.keys(kept).map((k) => k.length));
    const shortestDropped = Math.min(
      ...Object.keys(many)
        .filter((k) => !(k in kept))
        .map((k) => k.length),
    );
    expect(longestKept).toBeLessThan(shortestDropped);
  });

  test("read back as written", () => {
    const durations = { "earlier operation": 5000, restore: 70_000 };
    expect(parseDurations(formatDurations(durations))).toEqual(durations);
  });

  test("absent, damaged or edited text gives what is valid in it, or nothing: the reset then reads from its start", () => {
    expect(parseDurations(undefined)).toEqual({});
    expect(parseDurations("")).toEqual({});
    expect(parseDurations("{not json")).toEqual({});
    expect(parseDurations("[70000]")).toEqual({});
    expect(parseDurations("null")).toEqual({});
    expect(parseDurations("70000")).toEqual({});
    expect(parseDurations('{"restore":"70000","shutdown":-1,"kill":0,"power-on":20000}')).toEqual({ "power-on": 20_000 });
  });

  test("written back only when the command learned something the stack does not hold, or a figure moved by over a tenth", () => {
    expect(durationsToKeep({}, {})).toBeUndefined();
    expect(durationsToKeep({ restore: 70_000 }, { restore: 70_000.2 })).toBeUndefined();
    expect(durationsToKeep({ restore: 70_000 }, { restore: 77_000 })).toBeUndefined();
    expect(durationsToKeep({ restore: 70_000 }, { restore: 63_000 })).toBeUndefined();
    expect(durationsToKeep({ restore: 70_000 }, { restore: 62_000 })).toBe('{"restore":62000}');
    expect(durationsToKeep({}, { restore: 70_000 })).toBe('{"restore":70000}');
    expect(durationsToKeep({ restore: 70_000 }, { restore: 80_000 })).toBe('{"restore":80000}');
    expect(durationsToKeep({ restore: 70_000 }, { restore: 70_000, shutdown: 3000 })).toBe('{"restore":70000,"shutdown":3000}');
  });
});
