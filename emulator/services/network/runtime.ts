/**
 * The runtime of a vnet: each vnet runs on a machine of its own (its router), whose
 * machine_status says whether it is running — what clients read as `powerstate` and
 * `machine#status#running`. Power on/off and restart go through transitional states like a VM's;
 * applying rules clears the vnet's `need_*_apply` flags. A NIC may sit on a stopped vnet (the spec
 * sets no rule; its traffic simply goes nowhere until the vnet runs).
 */
import type { EmulatorContext } from "../../engine/context";
import { conflict } from "../../model/errors";
import type { Row } from "../../model/types";
import { statusOfMachine, stoppedFields } from "../compute/machineState";
import { DURATIONS } from "../compute/power";
import { COMPUTE } from "../../model/names/compute";
import { NETWORK } from "../../model/names/network";
import { CLUSTER } from "../../model/names/cluster";

export function vnetStatus(ctx: EmulatorContext, vnet: Row): Row {
  return statusOfMachine(ctx, vnet.machine);
}

export function vnetRunning(ctx: EmulatorContext, vnet: Row): boolean {
  return ctx.get(COMPUTE.machine_status, vnet.machine)?.powerstate === true;
}

function setStatus(ctx: EmulatorContext, vnet: Row, changes: Record<string, unknown>): void {
  ctx.update(COMPUTE.machine_status, vnetStatus(ctx, vnet).$key, { ...changes, last_update: ctx.nowSeconds() });
}

function later(ctx: EmulatorContext, vnet: Row, ms: number, expected: string, fn: () => void): void {
  ctx.schedule(ms, () => {
    if (ctx.get(NETWORK.vnets, vnet.$key) && ctx.get(COMPUTE.machine_status, vnet.machine)?.status === expected) fn();
  });
}

function firstNode(ctx: EmulatorContext, vnet: Row): unknown {
  return ctx.find(CLUSTER.nodes, (n) => n.cluster === (vnet.cluster ?? 1))[0]?.$key ?? ctx.all(CLUSTER.nodes)[0]?.$key ?? null;
}

function markRunning(ctx: EmulatorContext, vnet: Row): void {
  setStatus(ctx, vnet, { status: "running", running: true, state: "online", started: ctx.nowSeconds() });
  ctx.update(NETWORK.vnets, vnet.$key, { need_restart: false, need_fw_apply: false, need_dns_apply: false, need_proxy_apply: false });
}

export function powerOnVnet(ctx: EmulatorContext, vnet: Row): void {
  const status = vnetStatus(ctx, vnet);
  if (status.powerstate === true) throw conflict("cannot power on, already running");
  setStatus(ctx, vnet, { status: "starting", powerstate: true, running: false, state: "online", node: firstNode(ctx, vnet) });
  later(ctx, vnet, DURATIONS.start, "starting", () => markRunning(ctx, vnet));
}

export function powerOffVnet(ctx: EmulatorContext, vnet: Row): void {
  const status = vnetStatus(ctx, vnet);
  if (status.powerstate !== true) throw conflict("cannot power off, not running");
  setStatus(ctx, vnet, { status: "stopping" });
  later(ctx, vnet, DURATIONS.stop, "stopping", () => setStatus(ctx, vnet, stoppedFields()));
}

/** Immediate stop (also while starting or stopping). */
export function killVnet(ctx: EmulatorContext, vnet: Row): void {
  if (vnetStatus(ctx, vnet).powerstate !== true) throw conflict("cannot power off, not running");
  setStatus(ctx, vnet, stoppedFields());
}

/** Restart of a running vnet; `apply` also applies pending rules (they are applied at start anyway). */
export function resetVnet(ctx: EmulatorContext, vnet: Row): void {
  if (vnetStatus(ctx, vnet).status !== "running") throw conflict("cannot reset, not running");
  setStatus(ctx, vnet, { status: "starting", running: false });
  later(ctx, vnet, DURATIONS.reset, "starting", () => markRunning(ctx, vnet));
}

/** Applies firewall rules (and with them addressing changes); a stopped vnet applies them at its next start. */
export function applyRules(ctx: EmulatorContext, vnet: Row): void {
  ctx.update(NETWORK.vnets, vnet.$key, { need_fw_apply: false, need_proxy_apply: false });
}

export function applyDns(ctx: EmulatorContext, vnet: Row): void {
  ctx.update(NETWORK.vnets, vnet.$key, { need_dns_apply: false });
}
