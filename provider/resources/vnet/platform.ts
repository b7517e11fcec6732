import type { Session } from "../../reconcile/session";
import { type MachineStatus, toMachineStatus } from "../../reconcile/machineStatus";
import { type PowerActionName, type PowerSubject, type PowerTimeouts, switchOff, switchOn, untilRunning } from "../../reconcile/power";
import { sendConfirmed } from "../../reconcile/confirmedAction";
import type { Row } from "../../reconcile/platform";
import { waitForRow } from "../../reconcile/statusPoller";
import { type Clock, type PollOptions, realClock } from "../../reconcile/waitFor";
import { toBoolean } from "../../schemas/normalize";
import type { PendingChanges, VnetStep } from "../../plan/vnetPower";
import { VNET_ACTION_TABLE, VNET_TABLE } from "../../schemas/tables";

/**
 * A vnet runs on a router machine of its own. Its status is joined into the
 * vnet's row (`machine#status#...`), so a read, a look and a wait need no
 * machine key: every vnet wait of a run is one filtered GET of `vnets` per tick.
 */
const LIVE_STATUS_FIELDS = "machine#status#running as live_running,machine#status#status as live_status";
/** The platform's flags of changes made while the vnet ran, which wait for an apply or a restart (real-api-behaviour §7). */
const PENDING_FIELDS = "need_fw_apply,need_proxy_apply,need_dns_apply,need_restart";
const VNET_LIVE_FIELDS = `${LIVE_STATUS_FIELDS},${PENDING_FIELDS}`;

export interface VnetRef {
  vnetKey: string;
  name: string;
}

export const liveVnetStatus = (row: Row): MachineStatus => toMachineStatus({ running: row.live_running, status: row.live_status });

export function pendingChanges(row: Row): PendingChanges {
  const set = (field: string) => toBoolean(row[field]) === true;
  return { rules: set("need_fw_apply") || set("need_proxy_apply"), dns: set("need_dns_apply"), restart: set("need_restart") };
}

/** The maker's clients: poweron with params.apply (pending rules applied at the start); the force-off is `killpower` (py, ps). */
const ACTIONS: Record<PowerActionName, { action: string; params?: Row }> = {
  poweron: { action: "poweron", params: { apply: true } },
  poweroff: { action: "poweroff" },
  kill: { action: "killpower" },
};

function vnetAction(api: Session, vnet: VnetRef, action: string, params?: Row) {
  return api.action(VNET_ACTION_TABLE, params === undefined ? { vnet: vnet.vnetKey, action } : { vnet: vnet.vnetKey, action, params });
}

function vnetSubject(api: Session, vnet: VnetRef): PowerSubject {
  const label = `vnet '${vnet.name}'`;
  const read = (kind: string, done: (s: MachineStatus) => boolean, opts: PollOptions) =>
    waitForRow(
      api,
      VNET_TABLE,
      LIVE_STATUS_FIELDS,
      {
        key: vnet.vnetKey,
        kind,
        done: (row) => {
          if (!row) throw new Error(`vplatform: ${label} no longer exists`);
          return done(liveVnetStatus(row));
        },
        describe: (row) => `status ${row ? liveVnetStatus(row).status : "gone"}`,
      },
      opts,
    ).then((row) => liveVnetStatus(row ?? {}));
  return {
    label,
    send: (name) => vnetAction(api, vnet, ACTIONS[name].action, ACTIONS[name].params),
    look: (clock) => read("look", () => true, { timeoutSec: 60, label: `the status of ${label}`, clock }),
    waitFor: (predicate, opts) => read(opts.kind, predicate, opts),
  };
}

/**
 * The steps that send a vnet action and confirm it by the live row: the action and its params, and when the row
 * shows it taken (the flag cleared), so a lost answer is not sent twice.
 */
const CONFIRMED_STEPS = {
  // reset with params.apply also applies pending rules; taken once the router left running or the flag cleared.
  restart: {
    what: "restart",
    action: "reset",
    params: { apply: true },
    done: (row: Row) => !pendingChanges(row).restart || liveVnetStatus(row).status !== "running",
  },
  applyRules: { what: "rule apply", action: "refresh", params: { apply: true }, done: (row: Row) => !pendingChanges(row).rules },
  applyDns: { what: "DNS apply", action: "applydns", params: undefined, done: (row: Row) => !pendingChanges(row).dns },
} as const;

/**
 * An action that makes no row and clears a pending flag (a restart, an apply): a failure that leaves it open is
 * settled by the vnet's row (sendConfirmed), so a 503 or a lost answer ends in one effective action.
 */
async function sendUntilDone(
  api: Session,
  vnet: VnetRef,
  step: keyof typeof CONFIRMED_STEPS,
  t: PowerTimeouts,
  clock: Clock,
): Promise<void> {
  const { what, action, params, done } = CONFIRMED_STEPS[step];
  await sendConfirmed(
    {
      what: `${what} of vnet '${vnet.name}'`,
      send: () => vnetAction(api, vnet, action, params),
      async look() {
        const live = await readLiveVnet(api, vnet.vnetKey, "$key");
        if (!live) throw new Error(`vplatform: vnet '${vnet.name}' no longer exists`);
        const pending = Object.entries(pendingChanges(live.row)).filter(([, set]) => set);
        const held = pending.length ? `${pending.map(([kind]) => kind).join(" and ")} changes pending` : "nothing pending";
        return { taken: done(live.row) ? true : undefined, state: `status ${live.status.status}, ${held}` };
      },
      limitSec: t.powerChange,
      timeoutInput: "powerChange",
    },
    clock,
  );
}

/**
 * Runs the planned steps in order, each said with its reason: a restart (held-back changes of a running network)
 * is kept with the run's lines; powering on at create and off before a delete is routine, shown while it happens
 * (a class's 30 networks made 30 lines on every up and destroy).
 */
export async function runVnetSteps(
  api: Session,
  vnet: VnetRef,
  steps: VnetStep[],
  t: PowerTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  const subject = vnetSubject(api, vnet);
  for (const step of steps) {
    const line = `vplatform: vnet '${vnet.name}': ${step.reason}`;
    if (step.kind === "restart") clock.log(line);
    else clock.progress(line);
    switch (step.kind) {
      case "powerOn":
        await switchOn(subject, t, clock);
        break;
      case "powerOff":
        await switchOff(subject, t, clock);
        break;
      case "restart":
        await sendUntilDone(api, vnet, "restart", t, clock);
        await untilRunning(subject, t, clock, "restart", "run again");
        break;
      case "applyRules":
      case "applyDns":
        await sendUntilDone(api, vnet, step.kind, t, clock);
        break;
    }
  }
}

/** The vnet's row with its live status and pending flags; undefined when it is gone. */
export async function readLiveVnet(
  api: Session,
  vnetKey: string,
  fields: string,
): Promise<{ row: Row; status: MachineStatus } | undefined> {
  const row = await api.get(VNET_TABLE, vnetKey, `${fields},${VNET_LIVE_FIELDS}`);
  return row && { row, status: liveVnetStatus(row) };
}
