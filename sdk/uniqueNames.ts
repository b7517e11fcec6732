import * as pulumi from "@pulumi/pulumi";
import { ProgramError } from "./programError";

/** Per scope (a VM for its hardware, the program's stack for VMs and vnets): "Type:name" → the logical name that declared it. */
const claimed = new WeakMap<object, Map<string, string>>();

/**
 * Names the platform keeps unique are refused twice in one program before
 * anything is sent (the engine reports the error at preview): hardware of one
 * kind by name per VM, VMs and vnets by name across the program. A name that
 * is an Output is known only later and not checked here.
 */
export function claimName(scope: object | undefined, type: string, name: unknown, logical: string, where: string): void {
  if (scope === undefined || typeof name !== "string" || name === "") return;
  const names = claimed.get(scope) ?? new Map<string, string>();
  claimed.set(scope, names);
  const first = names.get(`${type}:${name}`);
  if (first !== undefined) {
    throw new ProgramError(
      `vplatform: ${type} '${logical}': name: '${name}' is already the name of ${type} '${first}' ${where}; names must be unique there — rename one of them`,
    );
  }
  names.set(`${type}:${name}`, logical);
}

/** The scope of program-wide names: this run's stack resource (one per run, also for inline programs run again in one process). */
export const programScope = (): object | undefined => pulumi.runtime.getStackResource();
