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

/**
 * The VMs an environment file lists, read without validating it (refresh and
 * destroy work even when the file is broken or gone: then 0). An overlay
 * cannot add entries, so the count is every stack's.
 */
export function vmsListed(file: string): number {
  try {
    const vms = (parse(fs.readFileSync(file, "utf8")) as { vms?: unknown } | null)?.vms;
    return Array.isArray(vms) ? vms.length : 0;
  } catch {
    return 0;
  }
}
