/**
 * The stack output `labs` (the class-lab contract, written by the `labs:`
 * block and `vp.Lab`), read back for `vplatform env reset` and `roster`:
 * parsing, choosing the copies, and what a reset needs of them. Pure.
 */
import { z } from "zod";
import { parseDurations, quickestOf } from "../provider/reconcile/learnedDurations";
import type { ResetTarget } from "../provider/reconcile/reset";

/** How `pulumi stack output` shows a secret it was not asked to show. */
export const MASKED = "[secret]";

const key = z.union([z.string(), z.number()]).transform(String);
const labVmSchema = z.object({
  id: key,
  machineKey: key,
  name: z.string(),
  powerState: z.enum(["running", "stopped"]).optional(),
  snapshot: key.optional(),
});
const copySchema = z.object({
  number: z.number().int().positive(),
  name: z.string(),
  vnet: z.object({ id: key, name: z.string(), network: z.string() }),
  user: z.object({ id: key, name: z.string() }).optional(),
  apiKey: z.object({ id: key, secret: z.string() }).optional(),
  vms: z.record(z.string(), labVmSchema),
});
const labsSchema = z.record(z.string(), z.object({ copies: z.record(z.string(), copySchema) }));

export type LabVm = z.infer<typeof labVmSchema>;
export type LabCopy = z.infer<typeof copySchema>;
export type LabsOutput = z.infer<typeof labsSchema>;

/** A lab's copies, in number order, with the lab's name. */
export interface ChosenCopies {
  lab: string;
  copies: LabCopy[];
}

export class LabArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LabArgumentError";
  }
}

/** The `labs` output of the stack's outputs, checked against the contract's shape. */
export function parseLabsOutput(outputs: Record<string, unknown>, stack: string): LabsOutput {
  if (outputs.labs === undefined)
    throw new LabArgumentError(`stack '${stack}' has no labs output: declare a lab in the file (labs:) and run \`vplatform env up\` first`);
  const parsed = labsSchema.safeParse(outputs.labs);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the labs output of stack '${stack}' is not as this vplatform writes it (labs.${issue.path.join(".")}: ${issue.message}); ` +
        "run `vplatform env up` with this version first",
    );
  }
  return parsed.data;
}

/** The lab the command is about: `--lab`, or the stack's only one. */
function chooseLab(labs: LabsOutput, lab: string | undefined): string {
  const names = Object.keys(labs).sort();
  if (lab !== undefined) {
    if (!labs[lab]) throw new LabArgumentError(`--lab ${lab}: the stack has no such lab (it has ${names.join(", ") || "none"})`);
    return lab;
  }
  if (names.length === 0) throw new LabArgumentError("the stack's labs output lists no lab: run `vplatform env up` first");
  if (names.length > 1) throw new LabArgumentError(`the stack has several labs (${names.join(", ")}): choose one with --lab <name>`);
  return names[0];
}

/** `--copy N` (one copy), else every copy; `copy` is checked against the lab's copies. */
export function chooseCopies(labs: LabsOutput, opts: { lab?: string; copy?: number }): ChosenCopies {
  const lab = chooseLab(labs, opts.lab);
  const copies = Object.values(labs[lab].copies).sort((a, b) => a.number - b.number);
  if (opts.copy === undefined) return { lab, copies };
  const chosen = copies.filter((c) => c.number === opts.copy);
  if (chosen.length === 0) {
    const range = copies.length ? `copies ${copies[0].number} to ${copies[copies.length - 1].number}` : "no copies";
    throw new LabArgumentError(`--copy ${opts.copy}: lab '${lab}' has ${range}; give one of them, or --all`);
  }
  return { lab, copies: chosen };
}

/**
 * The VMs to restore, in copy order. Refuses, before anything is sent, when
 * a chosen copy has VMs without a reset snapshot, naming each copy and VM.
 */
export function resetTargets({ lab, copies }: ChosenCopies): ResetTarget[] {
  const missing = copies.flatMap((c) =>
    Object.values(c.vms)
      .filter((vm) => vm.snapshot === undefined)
      .map((vm) => `${c.name}: ${vm.name}`),
  );
  if (missing.length)
    throw new LabArgumentError(
      `lab '${lab}': these VMs have no reset snapshot, so nothing was reset: ${missing.join(", ")}. ` +
        "Declare resetSnapshot on the lab (the environment then takes one of each VM at creation) and run `vplatform env up`",
    );
  return copies.flatMap((c) =>
    Object.values(c.vms).map((vm) => ({
      vm: { vmKey: vm.id, machineKey: vm.machineKey, name: vm.name },
      snapshot: vm.snapshot as string,
      ...(vm.powerState ? { powerState: vm.powerState } : {}),
    })),
  );
}

/** Replaces every API-key secret by the mask: what a report shows unless --show-secrets. */
export function maskSecrets(labs: LabsOutput): LabsOutput {
  return Object.fromEntries(
    Object.entries(labs).map(([name, lab]) => [
      name,
      {
        copies: Object.fromEntries(
          Object.entries(lab.copies).map(([n, c]) => [n, c.apiKey ? { ...c, apiKey: { ...c.apiKey, secret: MASKED } } : c]),
        ),
      },
    ]),
  );
}

/** A resource as `pulumi stack export` lists it: its id and outputs are what is read here. */
export interface ExportedResource {
  id?: string;
  outputs?: Record<string, unknown>;
}

/**
 * How long the platform's machine changes took when the targets' snapshots were taken (each snapshot's
 * `waitDurations`, the quickest of each kind): what the stack's up saw of the clones and power-ons these
 * snapshots were taken after. Empty when none records any (a stack made at lab speed, or by an older vplatform).
 */
export function snapshotsWaitDurations(resources: readonly ExportedResource[], targets: readonly ResetTarget[]): Record<string, number> {
  const snapshots = new Set(targets.map((t) => t.snapshot));
  return quickestOf(
    resources
      .filter((r) => r.id !== undefined && snapshots.has(String(r.id)) && typeof r.outputs?.waitDurations === "string")
      .map((r) => parseDurations(r.outputs?.waitDurations as string)),
  );
}
