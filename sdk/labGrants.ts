/**
 * A copy's user and what it may do, as platform resources: the user (role `none` unless the lab says otherwise and
 * says it is meant) and one Permission per grant the planner gives it (provider/plan/labGrants.ts): on each of its
 * VMs, on its vnet, nothing of another copy.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  COPY_USER_ROLE,
  copyGrants,
  type LabAccess as PlannedAccess,
  labAccessProblems,
  type LabUserReach as PlannedReach,
} from "../provider/plan/labGrants";
import type { LabAccess, LabUserArgs, LabUserReach } from "./labAccessArgs";
import type * as resources from "./resources.generated";
import { ProgramError } from "./programError";
import { VM_TABLE, VNET_TABLE } from "../provider/schemas/tables";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while the program's access types and the planner's agree. */
export type AccessTypesAgree<
  A extends true = Same<LabAccess, PlannedAccess>,
  R extends true = Same<LabUserReach, Omit<PlannedReach, "role">>,
> = [A, R];

/** Throws the problems of the lab's user and access, each naming its field. */
export function assertLabAccess(lab: string, user: LabUserArgs | undefined, access: LabAccess | undefined): void {
  // A role given as an output cannot be judged before it is known: like a role, it must be said to be meant.
  const role = user?.role === undefined || typeof user.role === "string" ? user?.role : "(an output)";
  const problems = labAccessProblems(user && { role, beyondCopy: user.beyondCopy }, access);
  if (problems.length > 0) throw new ProgramError(problems.map((p) => `lab '${lab}': ${p.field}: ${p.message}`).join("\n"));
}

/** The copy's user: role `none` unless the lab gives one. `User`: the class it is declared with (sdk/lab.ts LabClasses). */
export function declareCopyUser(
  copy: string,
  user: LabUserArgs,
  opts: pulumi.CustomResourceOptions,
  User: typeof resources.User,
): resources.User {
  const { beyondCopy: _meant, ...args } = user;
  return new User(copy, { role: COPY_USER_ROLE, ...args, name: copy }, opts);
}

/** The copy user's grants: on each of the copy's VMs (by its name in the template) and on its vnet. */
export function declareCopyGrants(
  copy: string,
  user: resources.User,
  vnet: resources.Vnet,
  vms: Record<string, resources.VirtualMachine>,
  access: LabAccess | undefined,
  parent: pulumi.Resource,
  Permission: typeof resources.Permission,
): resources.Permission[] {
  return copyGrants(copy, Object.keys(vms), access).map(
    (g) =>
      new Permission(
        g.name,
        { user: user.id, ...("vm" in g.on ? { table: VM_TABLE, row: vms[g.on.vm].id } : { table: VNET_TABLE, row: vnet.id }), ...g.rights },
        { parent },
      ),
  );
}
