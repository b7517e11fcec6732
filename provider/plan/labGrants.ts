/**
 * What a copy's user may do, planned: by default the user has no role (role `none`: it reaches only what is
 * granted) and exactly the grants its copy needs — on each of its VMs list, read and modify (power, restore to its
 * snapshots, console, settings), their hardware and snapshots read-only unless the lab lets it change them, and its
 * vnet read-only — and nothing of any other copy. A role reaches beyond the copy (every copy's VMs, or the whole
 * platform), so a lab giving one is refused unless it says that is meant. Pure: the SDK's vp.Lab declares the grants
 * planned here, and an environment file's labs are checked with the same rule (both doors, one rule).
 */

/** The role a copy's user has when the lab gives none: it reaches only what its grants give. */
export const COPY_USER_ROLE = "none";

/** What a role reaches beyond the copy, for the refusal. */
const ROLE_REACH: Record<string, string> = {
  admin: "everything on the platform, every copy included",
  vmoperator: "the power, settings and hardware of every VM of the platform, every other copy's included",
  readonly: "every copy's VMs, networks and users (and every other row of the platform), to read",
};

/** What a copy's user may do to its VMs' hardware (drives, NICs) and snapshots: read them (the default) or change them. */
export const HARDWARE_ACCESS = ["read", "change"] as const;
export type HardwareAccess = (typeof HARDWARE_ACCESS)[number];

/** A lab's `access`: what each copy's user may do on its own copy beyond running it. */
export interface LabAccess {
  /** `change`: add, change and remove its VMs' drives, NICs and snapshots (a NIC only on a vnet it may read: its own). */
  hardware?: HardwareAccess;
}

/** The lab's `user` as far as its reach is concerned. */
export interface LabUserReach {
  role?: string;
  /** The file says the role reaching beyond the copy is meant. */
  beyondCopy?: boolean;
}

export interface LabAccessProblem {
  field: "user.role" | "user.beyondCopy" | "access.hardware";
  message: string;
}

/** The problems of a lab's user and access: a role beyond the copy that the file does not say is meant. */
export function labAccessProblems(user: LabUserReach | undefined, access: LabAccess | undefined): LabAccessProblem[] {
  const problems: LabAccessProblem[] = [];
  const role = user?.role ?? COPY_USER_ROLE;
  if (role !== COPY_USER_ROLE && user?.beyondCopy !== true)
    problems.push({
      field: "user.role",
      message:
        `role '${role}' reaches beyond the copy: ${ROLE_REACH[role] ?? "rows of other copies"}. Leave role out (each copy's ` +
        "user then reaches its own copy only, through grants), or write beyondCopy: true beside it if that is meant",
    });
  if (user?.beyondCopy === true && role === COPY_USER_ROLE)
    problems.push({ field: "user.beyondCopy", message: "the copy's user has no role that reaches beyond the copy: drop beyondCopy" });
  if (access?.hardware !== undefined && !(HARDWARE_ACCESS as readonly string[]).includes(access.hardware))
    problems.push({ field: "access.hardware", message: `'${access.hardware}' is not one of ${HARDWARE_ACCESS.join(", ")}` });
  return problems;
}

/** Rights of a grant, as the platform names them. */
export interface GrantRights {
  list: boolean;
  read: boolean;
  create: boolean;
  modify: boolean;
  delete: boolean;
}

/** A grant one copy's user needs: on one of its VMs (by its name in the template) or on its vnet. */
export interface CopyGrant {
  /** The grant's logical name: `course-01-access-vm-web`, `course-01-access-vnet`. */
  name: string;
  on: { vm: string } | { vnet: true };
  rights: GrantRights;
}

const NONE: GrantRights = { list: false, read: false, create: false, modify: false, delete: false };

/** The rights on each of the copy's VMs: run it (modify), and with hardware `change` rebuild it (create: its children). */
export function vmRights(access: LabAccess | undefined): GrantRights {
  return { ...NONE, list: true, read: true, modify: true, create: access?.hardware === "change" };
}

/** The rights on the copy's vnet: see it (its NICs name it), nothing else. */
export const VNET_RIGHTS: GrantRights = { ...NONE, list: true, read: true };

/** The grants of copy `copy` whose template VMs are `vms`: one per VM, one on its vnet; nothing of another copy. */
export function copyGrants(copy: string, vms: readonly string[], access: LabAccess | undefined): CopyGrant[] {
  return [
    ...vms.map((vm) => ({ name: `${copy}-access-vm-${vm}`, on: { vm }, rights: vmRights(access) })),
    { name: `${copy}-access-vnet`, on: { vnet: true as const }, rights: VNET_RIGHTS },
  ];
}
