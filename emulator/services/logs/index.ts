/**
 * The logs feature: the `logs` and `machine_logs` tables, and one subscription per VM event that writes what
 * happened to both (the event bus carries no caller: the user is `system`). A machine's log goes with it.
 */
import type { EmulatorContext, EmulatorEvent } from "../../engine/context";
import type { Service } from "../../model/types";
import { logsTable, machineLogsTable, writeLog, writeMachineLog } from "./tables";
import { COMPUTE, VM_EVENTS, type VmEvent } from "../../model/names/compute";
import { SYSTEM_CALLER } from "../../model/callers";
import { rowEvent } from "../../model/events";
import { LOGS } from "../../model/names/logs";
import { onBusEvent } from "../events";

/** What the log line says of each VM event (a new VM event does not compile until it is given one). */
const LOGGED_VM_EVENTS: Record<VmEvent, string> = {
  [VM_EVENTS.poweron]: "powered on",
  [VM_EVENTS.poweroff]: "powered off",
  [VM_EVENTS.cloned]: "cloned",
  [VM_EVENTS.snapshot]: "snapshot taken",
  [VM_EVENTS.restored]: "restored from a snapshot",
};

function logVmEvent(ctx: EmulatorContext, { row: vm }: EmulatorEvent, what: string): void {
  const name = String(vm.name);
  writeLog(ctx, {
    level: "message",
    text: `VM '${name}' ${what}`,
    object_type: "vm",
    object_name: name,
    object_key: String(vm.$key),
    user: SYSTEM_CALLER.user,
  });
  if (ctx.get(COMPUTE.machines, vm.machine))
    writeMachineLog(ctx, { machine: vm.machine, level: "message", text: what, user: SYSTEM_CALLER.user });
}

export function logsFeature(): Service {
  return {
    tables: [logsTable, machineLogsTable],
    setup: (ctx) => {
      for (const event of Object.values(VM_EVENTS)) onBusEvent(ctx, event, (payload) => logVmEvent(ctx, payload, LOGGED_VM_EVENTS[event]));
      onBusEvent(ctx, rowEvent(COMPUTE.machines, "deleted"), ({ row: machine }) => {
        for (const line of ctx.find(LOGS.machine_logs, (l) => l.machine === machine.$key)) ctx.remove(LOGS.machine_logs, line.$key);
      });
    },
  };
}
