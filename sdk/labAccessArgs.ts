/**
 * What a lab's copies' users may do, as a program declares it. The planner's own types (provider/plan/labGrants.ts)
 * are the same: sdk/labGrants.ts fails to compile when they differ. Declared here so that the package's published
 * declarations reach no file of provider/.
 */
import type { UserArgs } from "./resources.generated";
export interface LabAccess {
  /**
   * What a copy's user may do to its VMs' drives, NICs and snapshots: `read` them (the default), or `change` them (add,
   * change, remove; a NIC only on a vnet it may read: its copy's).
   */
  hardware?: "read" | "change";
}

/** Beside a lab's `user.role`: the role reaches beyond the copy (every copy, or the platform), and that is meant. */
export interface LabUserReach {
  /** A role other than `none` is refused unless this says it is meant: a role is not limited to the copy. */
  beyondCopy?: boolean;
}

/** A lab's `user`: the fields of every copy's user but its name, and whether a role beyond the copy is meant. */
export type LabUserArgs = Omit<UserArgs, "name"> & LabUserReach;
