// Where the wall time of one command went: the moments its processes started (from /proc) and reached (from
// the probe, probe.ts), laid end to end along the path every command of the engine follows.

/** A moment a Node.js process reached, as the probe wrote it. */
export interface Mark {
  pid: number;
  role: string;
  mark: string;
  /** Epoch ms. */
  at: number;
}

/** A process the command started (any depth), from /proc: its name, start and the last time it was seen. */
export interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  startAt: number;
  lastSeenAt: number;
}

export interface Timeline {
  /** Whether the operation runs the program (preview, up) or only the provider (refresh). */
  runsProgram: boolean;
  spawnAt: number;
  endAt: number;
  marks: Mark[];
  procs: Proc[];
}

export const PHASES = [
  "before the engine",
  "engine start",
  "language host",
  "program",
  "provider start",
  "first request",
  "steps and finish",
] as const;
export type Phase = (typeof PHASES)[number];
/** Each phase in ms; they add up to the command's wall time. */
export type Split = Record<Phase, number> & { total: number };

export const PHASE_MEANINGS: Record<Phase, string> = {
  "before the engine":
    "the command's own start before the engine that runs the operation (vplatform env: Node, its modules, the Automation API's set-up commands)",
  "engine start": "the engine's start until the language host (or, for an inline program or no program, until the program or the provider)",
  "language host": "the language host until the program's process",
  program:
    "the program until its first resource reaches the engine and the engine starts the provider (TypeScript compiled, SDK loaded, resources declared)",
  "provider start": "the provider's process until it serves its first call (Node, the Pulumi SDK, the provider's code)",
  "first request": "from the first call to the first API request (refresh)",
  "steps and finish": "the rest: every resource's check and diff (or read), then the engine's finish",
};

/**
 * The engine that ran the operation: the `pulumi` above the provider's process (vplatform env runs others
 * before and after it), else the one that ran longest.
 */
function operationEngine(procs: Proc[], marks: Mark[]): Proc | undefined {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const provider = marks.find((m) => isProvider(m) && m.mark === "node");
  for (let p = provider && byPid.get(provider.pid), depth = 0; p && depth < 8; p = byPid.get(p.ppid), depth++)
    if (p.comm === "pulumi") return p;
  return procs.filter((p) => p.comm === "pulumi").sort((a, b) => b.lastSeenAt - b.startAt - (a.lastSeenAt - a.startAt))[0];
}

const first = (marks: Mark[], test: (m: Mark) => boolean) => marks.filter(test).sort((a, b) => a.at - b.at)[0]?.at;
const isProvider = (m: Mark) => m.role === "dynamic-provider" || m.role === "plugin";

/**
 * The split of a command's wall time, phase by phase along the critical path: spawn → the operation's engine
 * (the last `pulumi` started) → its language host → the program → the provider's process → its first call →
 * its first request → the command's exit. A moment that did not happen (no language host for an inline
 * program, no request in a preview) gives its phase 0 and the next phase starts where the last one ended.
 */
export function splitTimeline({ runsProgram, spawnAt, endAt, marks, procs }: Timeline): Split {
  const engine = operationEngine(procs, marks)?.startAt;
  // The program's start: its process's (the one that registered resources) or, for an inline program, the CLI's
  // first registration.
  const programPid = marks.find((m) => m.role === "program" && m.mark === "first-registration")?.pid;
  const program =
    programPid !== undefined
      ? marks.find((m) => m.pid === programPid && m.mark === "node")?.at
      : first(marks, (m) => m.role === "cli" && m.mark === "first-registration");
  // The language host that ran the program: the last started before the program (the engine asks an earlier one for plugins).
  const hosts = runsProgram
    ? procs.filter(
        (p) =>
          p.comm.startsWith("pulumi-language") &&
          (engine === undefined || p.startAt >= engine) &&
          (program === undefined || p.startAt <= program),
      )
    : [];
  const yamlHost = hosts.find((p) => p.comm.includes("yaml"));
  const languageHost = yamlHost?.startAt ?? (program === undefined ? undefined : hosts.at(-1)?.startAt);
  const providerProcess = first(marks, (m) => isProvider(m) && m.mark === "node" && (engine === undefined || m.at >= engine));
  const providerReady = first(marks, (m) => isProvider(m) && (m.mark === "first-provider-call" || m.mark === "ready"));
  const firstRequest = first(marks, (m) => isProvider(m) && m.mark === "first-request");
  // A Pulumi YAML program is its language host: it runs from the host's start.
  const programStart = yamlHost ? yamlHost.startAt : program;
  const moments: [Phase, number | undefined][] = [
    ["before the engine", engine],
    ["engine start", languageHost ?? programStart ?? providerProcess],
    ["language host", yamlHost ? undefined : languageHost !== undefined ? programStart : undefined],
    ["program", programStart !== undefined ? providerProcess : undefined],
    ["provider start", providerReady],
    ["first request", firstRequest],
    ["steps and finish", endAt],
  ];
  const split = { total: endAt - spawnAt } as Split;
  let previous = spawnAt;
  for (const [phase, at] of moments) {
    const until = at === undefined ? previous : Math.max(previous, Math.min(at, endAt));
    split[phase] = until - previous;
    previous = until;
  }
  return split;
}
