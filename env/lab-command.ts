/**
 * `vplatform env reset` and `vplatform env roster`: both work from the
 * stack's `labs` output alone (the file's program is not run, so a broken
 * file cannot block a reset between two sessions), then act on or read the
 * platform with the provider's own client and reconcile machinery.
 */
import { type Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { SETTING_NAMES, SETTINGS, settingKey } from "../provider/config/provider-config";
import { DEFAULT_TIMEOUTS } from "../provider/schemas/common";
import { durationsToKeep, learnedDurations, parseDurations, priorOfRestore } from "../provider/reconcile/learnedDurations";
import { RESTORE_WAIT } from "../provider/reconcile/restore";
import { MACHINE_STATUS_TABLE } from "../provider/schemas/tables";
import { platformApiFromConfig } from "../provider/reconcile/platformClient";
import { describeStep, type ResetTarget, resetVms } from "../provider/reconcile/reset";
import { Session } from "../provider/reconcile/session";
import { type Clock, realClock } from "../provider/reconcile/waitFor";
import type { CliArgs } from "./cli-args";
import { type EnvironmentStack, openEnvironmentStack } from "./environment-stack";
import {
  chooseCopies,
  type ExportedResource,
  LabArgumentError,
  type LabsOutput,
  MASKED,
  maskSecrets,
  parseLabsOutput,
  resetTargets,
  snapshotsWaitDurations,
} from "./lab-outputs";
import { buildRoster, readLive, renderRosterCsv, renderRosterJson, renderRosterMarkdown } from "./roster";
import { EXIT, type Io } from "./cli-io";
import { noSuchStack, stackOutputs } from "./stack-outputs";

/**
 * The `labs` output, API-key secrets masked unless `showSecrets`. When the
 * output is secret as a whole (a secret inside made it so), only then is it
 * decrypted, and its keys masked again at once.
 */
async function readLabs(stack: Stack, showSecrets: boolean): Promise<LabsOutput> {
  if (showSecrets) return parseLabsOutput(await stackOutputs(stack, true), stack.name);
  const masked = await stackOutputs(stack, false);
  if (masked.labs !== MASKED) return parseLabsOutput(masked, stack.name);
  return maskSecrets(parseLabsOutput(await stackOutputs(stack, true), stack.name));
}

/** The provider's settings (VPLATFORM_* of `env`), as stack config keys. */
function platformSetting(env: NodeJS.ProcessEnv): (key: string) => string | undefined {
  return (key) => {
    const setting = SETTING_NAMES.find((s) => settingKey(s) === key);
    return setting ? env[SETTINGS[setting].env] : undefined;
  };
}

/**
 * The stack tag keeping how long the platform's machine changes took in the last reset (its restores with
 * power-on): the next reset, in a fresh process, reads its VMs near that time instead of from 250 ms on. A tag,
 * not an output: a reset runs no update, and a tag causes no diff. Lost or damaged, the reset reads from the start.
 */
const WAIT_DURATIONS_TAG = "vplatform:wait-durations";

async function rememberedDurations(stack: Stack): Promise<Record<string, number>> {
  const tags: Record<string, string> = await stack.listTags().catch(() => ({}));
  return parseDurations(tags[WAIT_DURATIONS_TAG]);
}

/**
 * A stack's first reset (no restore kept in its tag): its restores with power-on are expected to take about a
 * clone and a power-on, as its up saw them when it took the snapshots (their `waitDurations`, in the state).
 * Past that time the poll goes on as usual, under the same deadlines; what the reset sees replaces it.
 */
async function restorePrior(stack: Stack, targets: ResetTarget[]): Promise<number | undefined> {
  const state = await stack.exportStack().catch(() => undefined);
  const resources: ExportedResource[] = state?.deployment?.resources ?? [];
  return priorOfRestore(snapshotsWaitDurations(resources, targets));
}

/** Progress and per-VM lines on stderr: stdout stays the report alone. */
const cliClock = (io: Io): Clock => ({ ...realClock, log: (line) => io.stderr(`${line}\n`), progress: (line) => io.stderr(`${line}\n`) });

export async function runLabCommand(
  args: CliArgs,
  io: Io,
  engineEnv: Record<string, string>,
  env: NodeJS.ProcessEnv,
  backend?: string,
): Promise<number> {
  let opened: EnvironmentStack | undefined;
  let session: Session | undefined;
  try {
    opened = await openEnvironmentStack({ projectName: args.project, stackName: args.stack, env: engineEnv, existing: true }).catch((e) => {
      if (!(e instanceof StackNotFoundError)) throw e;
      throw new LabArgumentError(noSuchStack(args, backend));
    });
    const [labs, remembered] = await Promise.all([
      readLabs(opened.stack, args.command === "roster" && args.showSecrets === true),
      args.command === "reset" ? rememberedDurations(opened.stack) : ({} as Record<string, number>),
    ]);
    const chosen = chooseCopies(labs, { ...(args.lab ? { lab: args.lab } : {}), ...(args.copy ? { copy: args.copy } : {}) });
    if (args.command === "reset") {
      const targets = resetTargets(chosen); // refuses VMs without a snapshot before anything is sent
      session = new Session(platformApiFromConfig(platformSetting(env)));
      const durations = learnedDurations(session, MACHINE_STATUS_TABLE);
      durations.remember(remembered);
      const prior = remembered[RESTORE_WAIT] === undefined ? await restorePrior(opened.stack, targets) : undefined;
      if (prior !== undefined) durations.expect(RESTORE_WAIT, prior, "as a clone and a power-on took in the up");
      const which = args.copy ? `copy ${args.copy}` : `all ${chosen.copies.length} copies`;
      io.stderr(`vplatform env reset: lab '${chosen.lab}', ${which}: ${targets.length} VMs\n`);
      const outcomes = await resetVms(session, targets, {
        timeouts: DEFAULT_TIMEOUTS,
        clock: cliClock(io),
        ...(args.parallel ? { parallel: args.parallel } : {}),
      });
      const keep = durationsToKeep(remembered, durations.known());
      if (keep)
        await opened.stack
          .setTag(WAIT_DURATIONS_TAG, keep)
          .catch((e: Error) =>
            io.stderr(`vplatform env reset: how long the restores took is not kept (stack tag ${WAIT_DURATIONS_TAG}): ${e.message}\n`),
          );
      const byMachine = new Map(outcomes.map((o) => [o.target.vm.machineKey, o]));
      const report = chosen.copies.map((c) => ({
        number: c.number,
        copy: c.name,
        vms: Object.entries(c.vms).map(([vm, v]) => {
          const o = byMachine.get(v.machineKey);
          return { vm, name: v.name, ...(o?.step ? { done: describeStep(o.step) } : { error: o?.error ?? "not reset" }) };
        }),
      }));
      const failed = outcomes.filter((o) => o.error).length;
      if (args.json)
        io.stdout(`${JSON.stringify({ lab: chosen.lab, result: failed ? "failed" : "succeeded", copies: report }, null, 2)}\n`);
      else
        for (const c of report)
          for (const vm of c.vms) io.stdout(`${c.copy} ${vm.vm} (${vm.name}): ${"done" in vm ? vm.done : `FAILED: ${vm.error}`}\n`);
      return failed ? EXIT.error : EXIT.ok;
    }
    const api = platformApiFromConfig(platformSetting(env));
    session = new Session(api);
    const roster = buildRoster(chosen, await readLive(session, chosen.copies), api.client.endpoint);
    io.stdout(args.json ? renderRosterJson(roster) : args.csv ? renderRosterCsv(roster) : renderRosterMarkdown(roster));
    return EXIT.ok;
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n`);
    return e instanceof LabArgumentError ? EXIT.invalid : EXIT.error;
  } finally {
    session?.close();
    opened?.dispose();
  }
}
