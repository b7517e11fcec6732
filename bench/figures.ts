// The benchmark's figures: what one measured operation records, its floor and
// ratio, and the tables printed from a set of them (pure: bench/index.ts
// measures, this file only derives and renders).

export const OPS = ["up", "preview", "refresh", "grow", "destroy"] as const;
export type Op = (typeof OPS)[number];

/** CPU seconds an operation cost each process taking part (sampled from /proc while it ran). */
export interface CpuSeconds {
  /** The `pulumi` CLI: the engine, its checkpoints included. */
  engine: number;
  /** The dynamic-provider processes. */
  provider: number;
  /** The Node.js language host and the program it runs. */
  program: number;
  /** The benchmark's own process: the emulator it embeds (and the Automation API's event stream). */
  emulator: number;
}

export interface Measured {
  vms: number;
  /** "lab" (time scale 0.01) or "×<scale>". */
  speed: string;
  variant: string;
  /** The engine's parallelism the operation ran at (absent in records older than this field). */
  parallel?: number;
  /** false when the run set PULUMI_SKIP_CHECKPOINTS (the file backend then writes state only at the end). */
  checkpoints: boolean;
  /** The state backend's scheme when not the default file backend ("postgres"). */
  backend?: string;
  op: Op;
  requests: number;
  seconds: number;
  /** The emulator's own transition time the operation waits for (a power-on for up, a power-off for destroy), ms. */
  transitionMs?: number;
  peakMiB: number;
  cpu?: CpuSeconds;
  /** Read from bench/baseline.jsonl: an earlier release's figures, shown beside the measured ones, held to no target. */
  recorded?: boolean;
}

/**
 * The requests no client can avoid, per operation:
 *   up       6 per VM (POST VM, 2 POST drives, POST NIC, power-on, 1 status read) + 1 (POST vnet)
 *   preview  0 (nothing changed)
 *   refresh  4 in all (one filtered GET per table: vnets, vms, machine_drives, machine_nics)
 *   grow     1 per VM (PUT of the drive)
 *   destroy  3 per VM (power-off, 1 status read, DELETE of the VM, which takes its hardware) + 1 (DELETE vnet)
 */
export const floor = (op: Op, vms: number): number => ({ up: 6 * vms + 1, preview: 0, refresh: 4, grow: vms, destroy: 3 * vms + 1 })[op];

/** Requests over the floor; 1 for nothing sent where nothing need be, undefined for requests over a floor of 0. */
export function ratio(r: Pick<Measured, "op" | "vms" | "requests">): number | undefined {
  const f = floor(r.op, r.vms);
  return f === 0 ? (r.requests === 0 ? 1 : undefined) : r.requests / f;
}

/** Wall time in transitions (power-ons for up); undefined at lab speed, whose 20 ms transition is no yardstick. */
export const inTransitions = (r: Pick<Measured, "seconds" | "transitionMs">): number | undefined =>
  r.transitionMs && r.transitionMs >= 1000 ? r.seconds / (r.transitionMs / 1000) : undefined;

export function variantLabel(r: Pick<Measured, "variant" | "parallel" | "checkpoints" | "backend" | "recorded">): string {
  const details = [
    ...(r.parallel ? [`parallel ${r.parallel}`] : []),
    ...(r.checkpoints ? [] : ["no checkpoints"]),
    ...(r.backend ? [r.backend] : []),
  ];
  const recorded = r.recorded ? " (recorded)" : "";
  return `${r.variant}${details.length ? ` (${details.join(", ")})` : ""}${recorded}`;
}

export interface Lab {
  vms: number;
  speed: string;
  label: string;
  variant: string;
  recorded: boolean;
  ops: Partial<Record<Op, Measured>>;
}

/** The measured operations grouped by lab (VMs, speed) and variant, in the order first seen. */
export function labs(results: Measured[]): Lab[] {
  const groups = new Map<string, Lab>();
  for (const r of results) {
    const label = variantLabel(r);
    const key = `${r.vms}|${r.speed}|${label}`;
    const lab = groups.get(key) ?? { vms: r.vms, speed: r.speed, label, variant: r.variant, recorded: !!r.recorded, ops: {} };
    lab.ops[r.op] = r;
    groups.set(key, lab);
  }
  return [...groups.values()];
}

/** Requests of a whole lifecycle (every operation), or undefined for an incomplete run. */
export function lifecycleRequests(lab: Lab): number | undefined {
  let total = 0;
  for (const op of OPS) {
    const r = lab.ops[op];
    if (!r) return undefined;
    total += r.requests;
  }
  return total;
}

/** The platform's limit: requests per hour per API key. */
export const KEY_HOUR = 1000;

const fixed = (x: number | undefined, digits: number, unit = "") => (x === undefined ? "—" : `${x.toFixed(digits)}${unit}`);

/** Every measured operation, one row each. */
export function allRunsRows(results: Measured[]): string[][] {
  const rows = [["VMs", "speed", "variant", "op", "requests", "per VM", "floor", "× floor", "seconds", "× transition", "provider MiB"]];
  for (const r of results)
    rows.push([
      String(r.vms),
      r.speed,
      variantLabel(r),
      r.op,
      String(r.requests),
      fixed(r.requests / r.vms, 1),
      String(floor(r.op, r.vms)),
      fixed(ratio(r), 2),
      r.seconds.toFixed(1),
      inTransitions(r) === undefined ? "" : fixed(inTransitions(r), 1),
      r.peakMiB ? String(r.peakMiB) : "?",
    ]);
  return rows;
}

/**
 * One table per lab size and speed: an operation per row, each variant's
 * requests, per VM, × floor and seconds side by side, and at a realistic speed
 * the wall time in transitions (up: power-ons).
 */
export function sideBySideTables(results: Measured[]): { title: string; rows: string[][] }[] {
  const byLab = new Map<string, Lab[]>();
  for (const lab of labs(results)) {
    const key = `${lab.vms} VMs, ${lab.speed} speed`;
    byLab.set(key, [...(byLab.get(key) ?? []), lab]);
  }
  return [...byLab.entries()].map(([title, variants]) => {
    const { vms } = variants[0];
    const timed = variants.some((v) => Object.values(v.ops).some((r) => inTransitions(r) !== undefined));
    const columns = (label: string) => [`${label}: requests`, "per VM", "× floor", "seconds", ...(timed ? ["× transition"] : [])];
    const blank = columns("").map(() => "");
    const rows = OPS.filter((op) => variants.some((v) => v.ops[op])).map((op) => [
      op,
      String(floor(op, vms)),
      ...variants.flatMap((v) => {
        const r = v.ops[op];
        if (!r) return blank;
        const cells = [String(r.requests), fixed(r.requests / vms, 1), fixed(ratio(r), 2, "×"), r.seconds.toFixed(1)];
        return timed ? [...cells, inTransitions(r)?.toFixed(1) ?? ""] : cells;
      }),
    ]);
    const lifecycle = variants.map(lifecycleRequests);
    if (lifecycle.some((t) => t !== undefined))
      rows.push([
        "lifecycle",
        String(OPS.reduce((s, op) => s + floor(op, vms), 0)),
        ...lifecycle.flatMap((total) =>
          total === undefined
            ? blank
            : [String(total), fixed(total / vms, 1), `${Math.floor(KEY_HOUR / (total / vms))} VMs/key-hour`, ...blank.slice(3)],
        ),
      ]);
    return { title, rows: [["op", "floor", ...variants.flatMap((v) => columns(v.label))], ...rows] };
  });
}

/** Where an operation's wall time went: each process's CPU seconds, for the operations that recorded them. */
export function cpuRows(results: Measured[]): string[][] {
  const rows = [["VMs", "variant", "op", "seconds", "engine CPU s", "provider CPU s", "program CPU s", "emulator CPU s"]];
  for (const r of results.filter((m) => m.cpu))
    rows.push([
      String(r.vms),
      variantLabel(r),
      r.op,
      r.seconds.toFixed(1),
      r.cpu!.engine.toFixed(1),
      r.cpu!.provider.toFixed(1),
      r.cpu!.program.toFixed(1),
      r.cpu!.emulator.toFixed(1),
    ]);
  return rows;
}

/** Aligned columns, or a Markdown table. */
export function renderRows(rows: string[][], markdown: boolean): string[] {
  if (markdown) {
    const [head, ...body] = rows;
    return [head, head.map(() => "---"), ...body].map((r) => `| ${r.join(" | ")} |`);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join("  ")
      .trimEnd(),
  );
}
