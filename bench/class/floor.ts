// The class scenario's figures (pure: bench/class/run.ts measures, this file
// derives the floor, the ratio and the hour's verdict, and lays out the table).

/**
 * A term's commands: the up, a roster, the first reset of the stack, a reset again (as between any two sessions:
 * it reads its poll near the duration the first one saw, kept with the stack), the destroy.
 */
export const CLASS_PHASES = ["up", "roster", "reset", "reset again", "destroy"] as const;
export type ClassPhase = (typeof CLASS_PHASES)[number];

/** The `vplatform env` command a phase runs. */
export const commandOf = (phase: ClassPhase) => (phase === "reset again" ? "reset" : phase);

/** The class's shape: `copies` copies of a lab of `vmsPerCopy` VMs, each VM cloned from one golden VM. */
export interface ClassShape {
  copies: number;
  vmsPerCopy: number;
}

/** One phase as measured. */
export interface ClassMeasured extends ClassShape {
  phase: ClassPhase;
  /** "lab" (time scale 0.01) or "×<scale>". */
  speed: string;
  /** The parallelism the CLI ran at (engine slots for up and destroy; VMs at once for reset); none for a roster. */
  parallel?: number;
  requests: number;
  /** Requests by method and table ("POST vms": 90). */
  byTable: Record<string, number>;
  seconds: number;
  /** Peak resident MiB of the provider processes; undefined where the phase runs in the CLI's own process. */
  peakMiB?: number;
  /** Up only: seconds from the command's start to the last VM running. */
  readySeconds?: number;
  /** Up only: the clones, how many were made from clones, the most sources cloning at once (the recorder's). */
  tree?: { clones: number; fromClones: number; sourcesAtOnce: number };
  /** Up only: the VMs that differ from copy 1's VM of the same template (none when the copies are equal). */
  differing?: string[];
}

/** One API key's hourly allowance on the platform. */
export const HOUR_BUDGET = 1000;

/** Keys one filtered GET carries (the provider's batched reads: provider/client/batchReader.ts). */
export const KEYS_PER_READ = 100;

/** GETs reading `rows` rows by key, joined. */
const joinedReads = (rows: number) => Math.ceil(rows / KEYS_PER_READ);

/**
 * The requests no client can avoid, with what they are. Reads that only wait
 * (a clone, a power-on) are coalesced by the status poller into a handful for
 * the whole class, so the floor counts none per VM; it counts one GET in all
 * where a phase must wait at least once. A read of what an answer lacks is
 * unavoidable, but not once per row: the rows of a class are read together,
 * one GET per 100 keys.
 */
export function classFloor(phase: ClassPhase, { copies, vmsPerCopy }: ClassShape): { requests: number; what: string } {
  const vms = copies * vmsPerCopy;
  switch (phase) {
    case "up":
      return {
        // A grant names the user's identity, which the user's creation answer does not carry; a snapshot's answer is
        // "accepted" without its key (docs/platform-api.md): each is read, the class's rows together.
        requests: 2 + 5 * copies + 6 * vms + 1 + joinedReads(copies) + joinedReads(vms),
        what:
          "golden VM + drive (2); per copy vnet, vnet power-on, user, key, the grant on its vnet (5); " +
          "per VM clone, drive, NIC, snapshot, power-on, the grant on it (6); 1 status read; " +
          "the users' identities and the snapshots' keys, which their answers lack (one GET per 100 of each)",
      };
    case "roster":
      return { requests: 2, what: "one list of machine statuses and one of NICs, for all copies" };
    case "reset":
    case "reset again":
      return {
        // A running VM must stop before a restore; the restore powers it back on (params.poweron). The hardware of
        // a VM and of its snapshot, two machines a VM, is read joined with the others': 100 machines a GET.
        requests: 2 * vms + 2 + joinedReads(vms) + 2 * joinedReads(2 * vms),
        what:
          "per VM kill, restore with power-on (2); 2 status reads (before and after); the snapshots' machines, " +
          "the VMs' and snapshots' NICs and devices (one GET per 100 of each)",
      };
    case "destroy":
      return {
        // Deleting a VM takes its drives and NICs, not its snapshots (VM rows of their own); the platform deletes
        // only a stopped network; a stopped golden needs no power-off.
        requests: 4 * vms + 5 * copies + 2,
        what:
          "per VM power-off, DELETE VM, DELETE snapshot, DELETE grant (4); per copy vnet power-off, DELETE vnet, user, key, vnet grant (5); " +
          "golden's DELETE; 1 status read",
      };
  }
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);

/** The table: per phase its requests (all, per VM, floor, ratio), seconds, parallelism and provider memory. */
export function classRows(results: ClassMeasured[]): string[][] {
  const head = ["speed", "copies × VMs", "phase", "parallel", "requests", "per VM", "floor", "× floor", "seconds", "provider MiB"];
  return [
    head,
    ...results.map((r) => {
      const vms = r.copies * r.vmsPerCopy;
      const floor = classFloor(r.phase, r).requests;
      return [
        r.speed,
        `${r.copies} × ${r.vmsPerCopy}`,
        r.phase,
        r.parallel === undefined ? "-" : String(r.parallel),
        String(r.requests),
        fixed(r.requests / vms, 2),
        String(floor),
        fixed(r.requests / floor, 2),
        fixed(r.seconds),
        r.peakMiB === undefined ? "(CLI process)" : String(r.peakMiB),
      ];
    }),
  ];
}

/** Whether an up and a reset of the whole class fit one API key's hour, measured and at the floor. */
export function hourVerdict(results: ClassMeasured[]): string[] {
  const lines: string[] = [];
  for (const speed of [...new Set(results.map((r) => r.speed))]) {
    const up = results.find((r) => r.speed === speed && r.phase === "up");
    const reset = results.find((r) => r.speed === speed && r.phase === "reset");
    if (!up || !reset) continue;
    const used = up.requests + reset.requests;
    const floor = classFloor("up", up).requests + classFloor("reset", up).requests;
    const vms = up.copies * up.vmsPerCopy;
    const perVm = floor / vms;
    const fits = (n: number) => (n <= HOUR_BUDGET ? `fits (${HOUR_BUDGET - n} to spare)` : `does NOT fit: ${n - HOUR_BUDGET} over`);
    lines.push(
      `${speed}, ${up.copies} copies × ${up.vmsPerCopy} VMs: up + reset-all = ${up.requests} + ${reset.requests} = ${used} requests: ${fits(used)}; ` +
        `the floor ${floor} ${fits(floor)}: at the floor one key's hour holds about ${Math.floor(HOUR_BUDGET / perVm)} VMs (${fixed(perVm, 2)} a VM).`,
    );
  }
  return lines;
}
