import { type Mark, PHASES, type Proc, splitTimeline } from "./timeline";

const proc = (pid: number, comm: string, startAt: number, lastSeenAt = 5000, ppid = 0): Proc => ({ pid, ppid, comm, startAt, lastSeenAt });
const mark = (pid: number, role: string, name: string, at: number): Mark => ({ pid, role, mark: name, at });
const sum = (split: Record<string, number>) => PHASES.reduce((total, phase) => total + split[phase], 0);

describe("a command's wall time is split along the engine's path", () => {
  test("a TypeScript program's preview: engine, language host, program, provider, then the steps", () => {
    const split = splitTimeline({
      runsProgram: true,
      spawnAt: 0,
      endAt: 3500,
      procs: [proc(1, "pulumi", 5), proc(2, "pulumi-language-nodejs", 150, 220), proc(3, "pulumi-language-nodejs", 360)],
      marks: [
        mark(10, "program", "node", 430),
        mark(10, "program", "exit", 460), // the language host's own short Node run
        mark(11, "program", "node", 500),
        mark(11, "program", "first-registration", 1000),
        mark(20, "dynamic-provider", "node", 2300),
        mark(20, "dynamic-provider", "first-provider-call", 2800),
      ],
    });
    expect(split).toEqual({
      total: 3500,
      "before the engine": 5,
      "engine start": 355,
      "language host": 140,
      program: 1800,
      "provider start": 500,
      "first request": 0,
      "steps and finish": 700,
    });
  });

  test("vplatform env: the CLI's own start and set-up commands come before the engine above the provider; an inline program has no language host", () => {
    const split = splitTimeline({
      runsProgram: true,
      spawnAt: 1000,
      endAt: 4200,
      procs: [
        proc(1, "node", 1000),
        proc(2, "pulumi", 1600, 1700, 1),
        proc(3, "pulumi", 1850, 4000, 1),
        proc(4, "sh", 2890, 4000, 3),
        proc(5, "node", 2895, 4000, 4),
        proc(6, "pulumi", 4050, 4150, 1), // the CLI reads the outputs after the operation
      ],
      marks: [
        mark(1, "cli", "node", 1030),
        mark(1, "cli", "first-registration", 2300),
        mark(5, "dynamic-provider", "node", 2900),
        mark(5, "dynamic-provider", "first-provider-call", 3400),
      ],
    });
    expect(split).toMatchObject({ "before the engine": 850, "engine start": 450, "language host": 0, program: 600, "provider start": 500 });
    expect(split["steps and finish"]).toBe(800);
  });

  test("a refresh runs no program: the engine starts the provider, which reads at once", () => {
    const split = splitTimeline({
      runsProgram: false,
      spawnAt: 0,
      endAt: 2000,
      procs: [proc(1, "pulumi", 2), proc(2, "pulumi-language-nodejs", 300, 1500)],
      marks: [
        mark(5, "dynamic-provider", "node", 350),
        mark(5, "dynamic-provider", "first-provider-call", 800),
        mark(5, "dynamic-provider", "first-request", 806),
      ],
    });
    expect(split).toMatchObject({
      "engine start": 348,
      "language host": 0,
      program: 0,
      "provider start": 450,
      "first request": 6,
      "steps and finish": 1194,
    });
  });

  test("a Pulumi YAML program is its language host, and the plugin is ready when it prints its port", () => {
    const split = splitTimeline({
      runsProgram: true,
      spawnAt: 0,
      endAt: 3000,
      procs: [proc(1, "pulumi", 0), proc(2, "pulumi-language-yaml", 300)],
      marks: [mark(7, "plugin", "node", 900), mark(7, "plugin", "ready", 1500)],
    });
    expect(split).toMatchObject({ "engine start": 300, "language host": 0, program: 600, "provider start": 600, "steps and finish": 1500 });
  });

  test("the phases always add up to the wall time, whatever is missing or out of order", () => {
    const cases = [
      { runsProgram: true, spawnAt: 0, endAt: 100, procs: [], marks: [] },
      { runsProgram: true, spawnAt: 0, endAt: 100, procs: [proc(1, "pulumi", 150)], marks: [mark(2, "dynamic-provider", "node", 50)] },
      { runsProgram: false, spawnAt: 10, endAt: 90, procs: [proc(1, "pulumi", 20)], marks: [mark(2, "plugin", "ready", 5)] },
    ];
    for (const timeline of cases) {
      const split = splitTimeline(timeline);
      expect(sum(split)).toBe(split.total);
      for (const phase of PHASES) expect(split[phase]).toBeGreaterThanOrEqual(0);
    }
  });
});
