/**
 * Creates a killed run left pending. The engine records a create before it asks the provider and clears the
 * record when the answer comes; a run killed in between leaves it in the state's pending operations, and the
 * engine keeps such records through every later run (it cannot know whether the row was made) with a long
 * warning each time. This provider can: each create marks its row with a marker derived from the resource's
 * identity (provider/reconcile/createMarker.ts), so the next `up` finds the row the dead run made and takes it
 * over, or makes it. Once an `up` has succeeded, a pending create of a resource the state now holds is settled
 * and is removed; one of a resource the state does not hold (the file no longer declares it, or a destroy ran)
 * may have left a row nobody manages, and is said.
 */
import type { Deployment, Stack } from "@pulumi/pulumi/automation";

/** The state's parts read here (the engine's deployment, version 3). */
interface StateDeployment {
  resources?: { urn: string }[];
  pending_operations?: { type: string; resource: { urn: string } }[];
}

export interface PendingCreates {
  /** The deployment without the settled creates (undefined: nothing to change). */
  deployment?: StateDeployment;
  /** Resources whose pending create the last `up` settled (they are in the state). */
  settled: string[];
  /** Resources whose pending create stays: a row may have been made that the state does not hold. */
  unsettled: string[];
}

const nameOf = (urn: string) => urn.split("::").pop() ?? urn;

/** The pending creates a successful run settled (`afterUp`: every declared resource is now in the state), and the rest. */
export function pendingCreates(deployment: StateDeployment, afterUp: boolean): PendingCreates {
  const pending = deployment.pending_operations ?? [];
  const creates = pending.filter((op) => op.type === "creating");
  const held = new Set((deployment.resources ?? []).map((r) => r.urn));
  const isSettled = (urn: string) => afterUp && held.has(urn);
  const settled = creates.filter((op) => isSettled(op.resource.urn)).map((op) => op.resource.urn);
  const unsettled = creates.filter((op) => !isSettled(op.resource.urn)).map((op) => op.resource.urn);
  if (settled.length === 0) return { settled, unsettled };
  const kept = pending.filter((op) => !(op.type === "creating" && isSettled(op.resource.urn)));
  return { deployment: { ...deployment, pending_operations: kept }, settled, unsettled };
}

/** What the CLI says about them. */
export function pendingCreatesLines({ settled, unsettled }: PendingCreates, command: string): string[] {
  const names = (urns: string[]) => urns.map(nameOf).join(", ");
  return [
    ...(settled.length
      ? [
          `vplatform: ${settled.length} create(s) a killed run left pending are settled: this ${command} found the rows ` +
            `they made by their markers, or made them (${names(settled)})`,
        ]
      : []),
    ...(unsettled.length
      ? [
          `vplatform: ${unsettled.length} create(s) a killed run left pending are not in the state (${names(unsettled)}): ` +
            "rows they made may be on the platform unmanaged. `vplatform env up` with them declared takes them over " +
            "(each create marks its row); then a destroy removes them.",
        ]
      : []),
  ];
}

/** The engine's warning about a previous run's pending operations (the CLI says its own, above). */
export const ENGINE_PENDING_WARNING = /^Attempting to deploy or update resources with \d+ pending operations from previous deployment/;

/** Reads the stack's pending creates after a successful run, removes the settled ones; the lines to say. */
export async function settlePendingCreates(stack: Stack, command: "up" | "destroy"): Promise<string[]> {
  const exported = await stack.exportStack();
  const found = pendingCreates(exported.deployment as StateDeployment, command === "up");
  // An import takes the stack's lock: a run that took it meanwhile makes this fail, and the records stay.
  if (found.deployment) await stack.importStack({ ...exported, deployment: found.deployment } as Deployment);
  return pendingCreatesLines(found, command);
}
