/**
 * The logs feature: the `logs` and `machine_logs` tables, and one subscription per VM event that writes what
 * happened to both (the event bus carries no caller: the user is `system`). A machine's log goes with it.
 */
import type { EmulatorContext, EmulatorEvent } from "../../engine/context";
import type { Service } from "../../model/types";
import { logsTable, machineLogsTable, writeLog, writeMachineLog } from "./tables";

/** The VM events logged, with what the line says. */
const VM_EVENTS: Record<string, string> = {
  "vms.poweron": "powered on",
  "vms.poweroff": "powered off",
  "vms.cloned": "cloned",
  "vms.snapshot": "snapshot taken",
  "vms.restored": "restored from a snapshot",
};

function logVmEvent(ctx: EmulatorContext, { row: vm }: EmulatorEvent, what: string): void {
  const name = String(vm.name);
  writeLog(ctx, {
    level: "message",
    text: `VM '${name}' ${what}`,
    object_type: "vm",
    object_name: name,
    object_key: String(vm.$key),
    user: "system",
  });
  if (ctx.get("machines", vm.machine)) writeMachineLog(ctx, { machine: vm.machine, level: "message", text: what, user: "system" });
}

export function logsFeature(): Service {
  return {
    tables: [logsTable, machineLogsTable],
    setup: (ctx) => {
      for (const [event, what] of Object.entries(VM_EVENTS)) {
        ctx.events.on(event, (payload: EmulatorEvent) => logVmEvent(ctx, payload, what));
      }
      ctx.events.on("machines.deleted", ({ row: machine }: EmulatorEvent) => {
        for (const line of ctx.find("machine_logs", (l) => l.machine === machine.$key)) ctx.remove("machine_logs", line.$key);
      });
    },
  };
}
