/**
 * The ordered steps of a VM update, decided from the diff and the VM's live
 * power state. Pure: the reconciler executes the steps (PUT, note action,
 * power actions with their waits and the graceful-then-forced shutdown).
 */
import { virtualMachineShape } from "./schema";
import { apiUpdateBody, describeChange, type ResourceDiff } from "../../plan/diff";
import { diffVirtualMachine } from "./diff";

export type VmStep =
  /** PUT vms/{key} with these API fields. */
  | { kind: "put"; body: Record<string, unknown> }
  /** note_actions update. */
  | { kind: "setNote"; text: string }
  /** Make the VM's cloudinit_files rows exactly these files. */
  | { kind: "syncCloudinitFiles"; files: { name: string; contents: string }[] }
  /** Graceful ACPI power off, forced after timeouts.gracefulShutdown. */
  | { kind: "powerOff"; reason: string }
  | { kind: "powerOn"; reason: string }
  /** powerOff then powerOn, so the changes just PUT take effect. */
  | { kind: "powerCycle"; reason: string };

export interface LiveVmState {
  running: boolean;
  /** The VM's current allow_hotplug: a running VM then accepts the PUT and is cycled afterwards. */
  allowHotplug: boolean;
}

export type VmUpdatePlan =
  /** `restart`: why the running VM is power-cycled, when it is. */
  | { ok: true; steps: VmStep[]; warnings: string[]; diff: ResourceDiff; restart?: string }
  | { ok: false; error: string; diff: ResourceDiff };

type Values = Record<string, unknown>;

const list = (shape: typeof virtualMachineShape, fields: string[], olds: Values, news: Values) =>
  fields.map((f) => describeChange(shape, f, olds, news)).join(", ");

/**
 * `olds` are the previous outputs, `news` the checked inputs. A change that
 * needs a power cycle of a running VM follows `powerCyclePolicy`: "restart"
 * cycles it (PUT first when the VM takes the PUT live, i.e. with hotplug;
 * otherwise stop, PUT, start), "refuse" fails with the fields and the way out.
 * A declared powerState is brought about in the same plan; undeclared, the
 * power is left as it is.
 */
export function planVmUpdate(olds: Values, news: Values, live: LiveVmState): VmUpdatePlan {
  const diff = diffVirtualMachine(olds, news);
  const vm = `VM '${String(news.name)}'`;
  if (diff.replaces.length > 0) {
    return {
      ok: false,
      diff,
      error: `${vm}: ${list(virtualMachineShape, diff.replaces, olds, news)} replaces the VM; it cannot be updated in place`,
    };
  }
  const warnings = [...diff.warnings];
  const body = apiUpdateBody(virtualMachineShape, diff, news);
  const apply: VmStep[] = Object.keys(body).length > 0 ? [{ kind: "put", body }] : [];
  if (diff.updates.includes("note") && news.note !== undefined) apply.push({ kind: "setNote", text: String(news.note) });
  if (diff.updates.includes("cloudinitFiles") && Array.isArray(news.cloudinitFiles)) {
    apply.push({ kind: "syncCloudinitFiles", files: news.cloudinitFiles as { name: string; contents: string }[] });
  }

  const desired = news.powerState as "running" | "stopped" | undefined;
  if (!live.running) {
    // Everything takes effect when the VM next starts.
    return {
      ok: true,
      diff,
      warnings,
      steps: desired === "running" ? [...apply, { kind: "powerOn", reason: "powerState is running" }] : apply,
    };
  }
  if (desired === "stopped") {
    return { ok: true, diff, warnings, steps: [{ kind: "powerOff", reason: "powerState is stopped" }, ...apply] };
  }
  const cycle = diff.powerCycle.filter((f) => !diff.noApiCall.includes(f));
  if (cycle.length === 0) {
    for (const f of diff.nextStart)
      warnings.push(`${describeChange(virtualMachineShape, f, olds, news)} applies at the next start of ${vm}`);
    return { ok: true, diff, warnings, steps: apply };
  }
  const reason = `${list(virtualMachineShape, cycle, olds, news)} ${cycle.length > 1 ? "need" : "needs"} a power cycle of ${vm}`;
  const policy = news.powerCyclePolicy ?? virtualMachineShape.powerCyclePolicy.parse(undefined);
  if (policy === "refuse") {
    return {
      ok: false,
      diff,
      error: `${reason} and powerCyclePolicy is 'refuse': set powerCyclePolicy to 'restart', or powerState to 'stopped', to apply it`,
    };
  }
  const steps: VmStep[] = live.allowHotplug
    ? [...apply, { kind: "powerCycle", reason }]
    : [{ kind: "powerOff", reason }, ...apply, { kind: "powerOn", reason }];
  return { ok: true, diff, warnings, steps, restart: reason };
}
