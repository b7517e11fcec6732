/**
 * What a vnet's update does about its power and its pending changes: a pure
 * plan from the declared power state and what was found (running or not, and
 * which changes the platform holds back until an apply or a restart).
 */
export type VnetPowerState = "running" | "stopped";

/** Changes made while the vnet ran, held back by the platform (need_fw_apply / need_proxy_apply, need_dns_apply, need_restart). */
export interface PendingChanges {
  rules: boolean;
  dns: boolean;
  restart: boolean;
}

export type VnetStep =
  | { kind: "powerOn"; reason: string }
  | { kind: "powerOff"; reason: string }
  /** reset with params.apply: a restart that also applies the rules. */
  | { kind: "restart"; reason: string }
  | { kind: "applyRules"; reason: string }
  | { kind: "applyDns"; reason: string };

/**
 * Declared running and found stopped: one poweron with params.apply (a start
 * applies every pending change). Declared stopped and found running: a
 * poweroff (pending changes wait for the next start). A vnet left running
 * (declared so, or power not managed) gets its pending changes applied: a
 * restart when one is needed (it applies the rest too), else the rule and DNS
 * applies it needs. Anything else: nothing to do.
 */
export function planVnetPower(declared: VnetPowerState | undefined, found: { running: boolean; pending: PendingChanges }): VnetStep[] {
  if (declared === "running" && !found.running) return [{ kind: "powerOn", reason: "powerState is running: powering it on" }];
  if (declared === "stopped" && found.running) return [{ kind: "powerOff", reason: "powerState is stopped: powering it off" }];
  if (!found.running) return [];
  const { rules, dns, restart } = found.pending;
  if (restart) return [{ kind: "restart", reason: "restarting it to apply changes that need a restart (need_restart)" }];
  return [
    ...(rules ? [{ kind: "applyRules" as const, reason: "applying its changed rules (need_fw_apply)" }] : []),
    ...(dns ? [{ kind: "applyDns" as const, reason: "applying its changed DNS settings (need_dns_apply)" }] : []),
  ];
}
