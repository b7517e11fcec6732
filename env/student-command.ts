/**
 * `vplatform student reset`: a student puts their own copy back to its start with their own API key, without the
 * course's stack, state or file. What the key may see and change is the platform's answer (a copy's user sees its
 * own VMs only): every VM it lists that has a snapshot of the name is reset with the provider's own reset (kill,
 * NICs as the snapshot holds them, restore with power-on); a VM the key may read but not change answers 403 before
 * anything changes, and is reported left alone.
 */
import { quoteLiteral } from "../provider/client/query-string";
import { settingKey } from "../provider/config/provider-config";
import { platformApiFromConfig } from "../provider/reconcile/platformClient";
import { str } from "../provider/reconcile/platform";
import { describeStep, type ResetTarget, resetVms } from "../provider/reconcile/reset";
import { Session } from "../provider/reconcile/session";
import { type Clock, realClock } from "../provider/reconcile/waitFor";
import { DEFAULT_TIMEOUTS } from "../provider/schemas/common";
import { EXIT, type Io } from "./cli-io";
import { parseStudentArgs, type StudentArgs, STUDENT_USAGE } from "./student-args";
import { SNAPSHOT_TABLE, VM_TABLE } from "../provider/schemas/tables";

/** The VMs the key lists (snapshots aside) that have a snapshot named `snapshot`: the newest of that name each. */
export async function studentResetTargets(api: Session, snapshot: string): Promise<ResetTarget[]> {
  const [vms, snapshots] = await Promise.all([
    api.list(VM_TABLE, { filter: "is_snapshot eq false", fields: "$key,name,machine", limit: 0 }),
    api.list(SNAPSHOT_TABLE, { filter: `name eq ${quoteLiteral(snapshot)}`, fields: "$key,machine,snap_machine,created", limit: 0 }),
  ]);
  const newest = new Map<string, Record<string, unknown>>();
  for (const s of snapshots) {
    const held = newest.get(str(s.machine));
    if (!held || Number(s.created) > Number(held.created)) newest.set(str(s.machine), s);
  }
  return vms.flatMap((vm) => {
    const s = newest.get(str(vm.machine));
    return s
      ? [
          {
            vm: { vmKey: str(vm.$key), machineKey: str(vm.machine), name: str(vm.name) },
            snapshot: str(s.$key),
            snapshotMachine: str(s.snap_machine),
          },
        ]
      : [];
  });
}

/** Progress on stderr: stdout stays the report alone. */
const cliClock = (io: Io): Clock => ({ ...realClock, log: (line) => io.stderr(`${line}\n`), progress: (line) => io.stderr(`${line}\n`) });

async function reset(args: StudentArgs, io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  if (!args.endpoint && !env.VPLATFORM_ENDPOINT?.trim()) {
    io.stderr("error: which platform? give --endpoint https://host[:port] or set VPLATFORM_ENDPOINT\n");
    return EXIT.invalid;
  }
  const settings = (key: string) => (key === settingKey("endpoint") ? args.endpoint : undefined);
  const session = new Session(platformApiFromConfig(settings));
  try {
    const targets = await studentResetTargets(session, args.snapshot);
    if (targets.length === 0) {
      io.stderr(`error: no VM this key can see has a snapshot named '${args.snapshot}': nothing was reset\n`);
      return EXIT.invalid;
    }
    io.stderr(`vplatform student reset: ${targets.length} VMs with a snapshot '${args.snapshot}'\n`);
    const outcomes = await resetVms(session, targets, { timeouts: DEFAULT_TIMEOUTS, clock: cliClock(io) });
    const report = outcomes.map((o) => ({
      vm: o.target.vm.name,
      vmKey: o.target.vm.vmKey,
      ...(o.step
        ? { done: describeStep(o.step) }
        : o.status === 403
          ? { skipped: "this key may not change this VM: left as it was" }
          : { error: o.error ?? "not reset" }),
    }));
    const failed = report.filter((r) => "error" in r).length;
    if (args.json) io.stdout(`${JSON.stringify({ result: failed ? "failed" : "succeeded", vms: report }, null, 2)}\n`);
    else
      for (const r of report)
        io.stdout(`${r.vm}: ${"done" in r ? r.done : "skipped" in r ? `skipped: ${r.skipped}` : `FAILED: ${r.error}`}\n`);
    return failed ? EXIT.error : EXIT.ok;
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n`);
    return EXIT.error;
  } finally {
    session.close();
  }
}

/** `vplatform student <command>`; returns its exit code. */
export async function runStudentCommand(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseStudentArgs(argv);
  if (!parsed.ok) {
    if (parsed.help) io.stdout(`${STUDENT_USAGE}\n`);
    else io.stderr(`vplatform student: ${parsed.message}\n${STUDENT_USAGE}\n`);
    return parsed.help ? EXIT.ok : EXIT.invalid;
  }
  return reset(parsed.args, io, env);
}
