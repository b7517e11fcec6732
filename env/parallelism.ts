import * as fs from "node:fs";
import { parse } from "yaml";

/**
 * The engine's parallelism when `--parallel` is not given. A VM's create,
 * power-on and hardware mostly wait on the platform, and those waits are
 * coalesced (one status read per table per tick, whatever the number of
 * waiters), so an engine slot is cheap: give each VM of the file about four
 * (itself, its hardware, its power) so a lab's power-ons overlap, and never
 * fewer than the floor.
 */
export const MIN_PARALLEL = 32;
export const SLOTS_PER_VM = 4;

export const defaultParallelism = (vms: number): number => Math.max(MIN_PARALLEL, SLOTS_PER_VM * vms);

/** What the VMs of a file are counted from: its own and each lab's, once per copy. */
interface Declared {
  vms?: unknown;
  labs?: unknown;
}

/** The VMs a file declares: its `vms` and, per lab, `copies` × the lab's `vms` (a class of 30 × 3 is 90 VMs). */
export function vmsDeclared(env: Declared): number {
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  const labs = Array.isArray(env.labs) ? (env.labs as { copies?: unknown; vms?: unknown }[]) : [];
  return count(env.vms) + labs.reduce((n, lab) => n + (Number.isInteger(lab?.copies) ? Number(lab.copies) : 0) * count(lab?.vms), 0);
}

/**
 * The VMs an environment file lists, read without validating it (refresh and
 * destroy work even when the file is broken or gone: then 0). An overlay
 * cannot add entries; a lab's copies are counted as the file's base declares them.
 */
export function vmsListed(file: string): number {
  try {
    return vmsDeclared((parse(fs.readFileSync(file, "utf8")) as Declared | null) ?? {});
  } catch {
    return 0;
  }
}
