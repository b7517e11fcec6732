/**
 * `vnets`: virtual networks. `network` is an IPv4 CIDR block; gateway and the
 * DHCP range must lie inside it (else the real API's
 * `Validation error on field: 'dhcp_start' - 'fails validation test'`).
 */
import { isIPv4 } from "node:net";
import { createRow } from "../../engine/write";
import { ApiError, validationError } from "../../model/errors";
import { applyDns, applyRules, killVnet, powerOffVnet, powerOnVnet, resetVnet, vnetRunning } from "./runtime";
import { newMac } from "../compute/hardware";
import { createMachineFor, deleteMachine } from "../compute/machines";
import { ADMIN_CALLER } from "../../model/callers";
import type { ActionDef, EmulatorContext, Row } from "../../model/types";
import { namedFields, table, timestampFields, uniqueNames } from "../../model/tableParts";

/** Changes on a running vnet that wait for an apply (rules), a DNS apply, or a restart. */
const RULE_FIELDS = [
  "network",
  "ipaddress",
  "gateway",
  "dhcp_enabled",
  "dhcp_start",
  "dhcp_stop",
  "dhcp_dynamic",
  "dhcp_sequential",
  "rate_limit",
  "rate_limit_burst",
  "rate_limit_type",
  "proxy_enabled",
  "proxy_listen_address",
];
const DNS_FIELDS = ["dns", "dnslist", "domain", "hostname", "override_dhcp_dns", "network_dns"];
const RESTART_FIELDS = ["mtu", "layer2_type", "layer2_id", "interface_vnet", "physical_bridged", "enable_bonding"];
import { options } from "../../model/options";
import { NETWORK } from "../../model/names/network";
import { COMPUTE } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";

const list = (...values: string[]): Record<string, string> => options(values);

export function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

export function parseCidr(cidr: string): { base: number; bits: number } | undefined {
  const [ip, bits, extra] = cidr.split("/");
  if (extra !== undefined || !isIPv4(ip) || bits === undefined || !/^\d+$/.test(bits) || Number(bits) > 32) return undefined;
  const size = 2 ** (32 - Number(bits));
  return { base: Math.floor(ipv4ToInt(ip) / size) * size, bits: Number(bits) };
}

export function inNetwork(ip: string, cidr: { base: number; bits: number }): boolean {
  if (!isIPv4(ip)) return false;
  const value = ipv4ToInt(ip);
  return value >= cidr.base && value < cidr.base + 2 ** (32 - cidr.bits);
}

function checkAddresses(row: Row): void {
  if (!row.network) {
    if (row.dhcp_enabled === true) throw validationError("network", "is required when dhcp_enabled is true");
    return;
  }
  const cidr = parseCidr(String(row.network));
  if (!cidr) throw validationError("network", "fails validation test: not an IPv4 CIDR block");
  for (const field of ["gateway", "ipaddress", "dhcp_start", "dhcp_stop"]) {
    const value = row[field];
    if (value === "" || value === null || value === undefined) continue;
    if (!inNetwork(String(value), cidr)) {
      throw validationError(field, `fails validation test: ${String(value)} is not inside ${String(row.network)}`);
    }
  }
  if (row.dhcp_start && row.dhcp_stop && ipv4ToInt(String(row.dhcp_start)) > ipv4ToInt(String(row.dhcp_stop))) {
    throw validationError("dhcp_start", "fails validation test: dhcp_start is after dhcp_stop");
  }
}

export const vnetsTable = table(NETWORK.vnets, {
  description: "virtual networks",
  ...uniqueNames("a vnet"),
  defaultFields: ["name", "description", "type", "network", "gateway", "dhcp_enabled", "dhcp_start", "dhcp_stop", "mtu", "enabled"],
  fields: {
    ...namedFields(),
    type: { type: "string", default: "internal", enum: list("internal", "external", "dmz") },
    layer2_type: { type: "string", default: "vxlan", enum: list("vxlan", "vlan", "none") },
    layer2_id: { type: "uint32", default: 0 },
    network: { type: "string", default: "", maxLength: 43 },
    ipaddress: { type: "string", default: "" },
    gateway: { type: "string", default: "" },
    dns: { type: "string", default: "simple", enum: list("disabled", "simple", "bind", "network") },
    dnslist: { type: "string", default: "" },
    domain: { type: "string", default: "" },
    mtu: { type: "uint16", default: 1500, min: 576, max: 9216 },
    dhcp_enabled: { type: "bool", default: false },
    dhcp_start: { type: "string", default: "" },
    dhcp_stop: { type: "string", default: "" },
    rate_limit: { type: "uint32", default: 0 },
    rate_limit_burst: { type: "uint32", default: 0 },
    rate_limit_type: { type: "string", default: "mbytes/second", enum: list("mbytes/second", "mbits/second", "packets/second") },
    advanced_options: {
      type: "json",
      default: {},
      notInMost: true,
      description: "options for the network's services; key dnsmasq holds an array of strings",
    },
    on_power_loss: { type: "string", default: "last_state", enum: list("power_on", "last_state", "leave_off") },
    interface_vnet: { type: "row", ref: NETWORK.vnets, refMustExist: 404 },
    enabled: { type: "bool", default: true, description: "PUT true on a stopped vnet powers it on (as the maker's Go client expects)" },
    need_fw_apply: { type: "bool", readOnly: true, default: false },
    need_dns_apply: { type: "bool", readOnly: true, default: false },
    need_proxy_apply: { type: "bool", readOnly: true, default: false },
    need_restart: { type: "bool", readOnly: true, default: false },
    ...timestampFields(),
    creator: { type: "string", readOnly: true, default: "" },
    // The runtime: the vnet's own machine and its status (see runtime.ts).
    machine: { type: "row", ref: COMPUTE.machines, readOnly: true, description: "machine running the vnet (its router)" },
    powerstate: { type: "bool", compute: (ctx, row) => vnetRunning(ctx, row), description: "true while the vnet's machine is powered on" },
    ip: {
      type: "string",
      compute: (_ctx, row) => row.ipaddress,
      description: "the vnet's own address (ipaddress), as inventories read it",
    },
    running: { type: "bool", compute: (ctx, row) => vnetRunning(ctx, row), description: "same as powerstate (the name clients filter on)" },
    nic: {
      type: "row",
      ref: COMPUTE.machine_nics,
      readOnly: true,
      default: null,
      description: "the router's NIC (the emulated router has none)",
    },
    nic_dmz: { type: "row", ref: COMPUTE.machine_nics, readOnly: true, default: null, description: "the router's DMZ NIC (none here)" },
    macaddress: { type: "string", readOnly: true, default: () => newMac() },
    dmz_ipaddress: { type: "string", default: "" },
    ipaddress_type: { type: "string", default: "static", enum: list("static", "dhcp") },
    hostname: { type: "string", default: "", maxLength: 128 },
    vnet_default_gateway: { type: "row", ref: NETWORK.vnets, refMustExist: 404, default: null },
    override_dhcp_dns: { type: "bool", default: false },
    network_dns: { type: "row", ref: NETWORK.vnets, refMustExist: 404, default: null },
    dhcp_dynamic: { type: "bool", default: true, description: "hand out addresses to unknown clients" },
    dhcp_sequential: { type: "bool", default: true },
    vxlan_multicast: { type: "string", default: "" },
    physical_bridged: { type: "bool", default: false },
    cluster: { type: "row", ref: CLUSTER.clusters, refMustExist: 404, default: 1 },
    cluster_failover: { type: "row", ref: CLUSTER.clusters, refMustExist: 404, default: null },
    preferred_node: { type: "row", ref: CLUSTER.nodes, refMustExist: 404, default: null },
    ha_group: { type: "string", default: "" },
    enable_bonding: { type: "bool", default: false },
    bond_interfaces_args: { type: "json", default: [], notInMost: true },
    port_mirroring: { type: "string", default: "disabled", enum: list("disabled", "rx", "tx", "both") },
    port_mirroring_vnet: { type: "row", ref: NETWORK.vnets, refMustExist: 404, default: null },
    statistics: { type: "bool", default: false },
    dmz_statistics: { type: "bool", default: false },
    trace: { type: "bool", default: false },
    mirror_logs: { type: "bool", default: false },
    bgp_asn: { type: "uint32", default: 0 },
    ipsec_enabled: { type: "bool", readOnly: true, default: false },
    proxy_enabled: { type: "bool", default: false },
    proxy_listen_address: { type: "string", default: "" },
    pxe: { type: "string", default: "" },
    tftp_server: { type: "string", default: "" },
    monitor_gateway: { type: "bool", default: false },
    monitor_ip: { type: "string", default: "" },
    monitor_interval_ms: { type: "uint32", default: 1000 },
    note: { type: "text", default: "" },
  },
  hooks: {
    validate: (_ctx, row) => {
      checkAddresses(row);
      const advanced = row.advanced_options as Record<string, unknown> | null;
      if (advanced !== null && (typeof advanced !== "object" || Array.isArray(advanced))) {
        throw validationError("advanced_options", "must be an object");
      }
      if (
        advanced &&
        advanced.dnsmasq !== undefined &&
        !(Array.isArray(advanced.dnsmasq) && advanced.dnsmasq.every((s) => typeof s === "string"))
      ) {
        throw validationError("advanced_options", "dnsmasq must be an array of strings");
      }
    },
    afterCreate: (ctx, row, caller) => {
      ctx.update(NETWORK.vnets, row.$key, { machine: createMachineFor(ctx, row, "vnet"), creator: caller.user });
    },
    beforeUpdate: (ctx, row, changes) => {
      const running = vnetRunning(ctx, row);
      const changed = (fields: string[]) => fields.some((f) => f in changes && changes[f] !== row[f]);
      if (running && changed(RULE_FIELDS)) changes.need_fw_apply = true;
      if (running && changed(DNS_FIELDS)) changes.need_dns_apply = true;
      if (running && changed(RESTART_FIELDS)) changes.need_restart = true;
      // The maker's Go client powers a network on with PUT {enabled: true}: a stopped vnet starts.
      if (changes.enabled === true && ctx.get(COMPUTE.machine_status, row.machine)?.status === "stopped") powerOnVnet(ctx, row);
    },
    beforeDelete: (ctx, row) => {
      const users = ctx.find(COMPUTE.machine_nics, (n) => n.vnet === row.$key);
      if (users.length) throw new ApiError(409, `vnet in use by ${users.length} NIC(s)`);
      // The maker's Remove-VergeNetwork: "The network must be powered off before it can be deleted."
      if (vnetRunning(ctx, row)) throw new ApiError(409, "cannot delete a running network; power it off first");
    },
    afterDelete: (ctx, row) => {
      if (row.machine !== null && row.machine !== undefined) deleteMachine(ctx, row.machine);
    },
  },
  seed: (ctx) => {
    // Seeded through the table's own rules (defaults, machine), then running like an uplink does.
    const { row } = createRow(
      ctx,
      vnetsTable,
      {
        name: "External",
        description: "uplink network",
        type: "external",
        layer2_type: "vlan",
        layer2_id: 0,
        network: "192.168.0.0/24",
        ipaddress: "192.168.0.2",
        gateway: "192.168.0.1",
        dns: "simple",
        dnslist: "1.1.1.1",
      },
      ADMIN_CALLER,
    );
    ctx.update(COMPUTE.machine_status, row.machine as number, {
      status: "running",
      running: true,
      powerstate: true,
      state: "online",
      node: 1,
      started: ctx.nowSeconds(),
    });
  },
});

/** `vnet_actions`: power and apply actions of a vnet (body `{vnet, action, params}`). */
/** An action that, with `params.apply` true, first applies the vnet's pending rules (clients send it with poweron and reset). */
function applyingFirst(what: string, run: (ctx: EmulatorContext, vnet: Row) => void): ActionDef {
  return {
    description: `${what}; params.apply also applies pending rules`,
    params: { apply: { type: "bool" } },
    handler: (ctx, { target, params }) => {
      if (params.apply === true) applyRules(ctx, target!);
      run(ctx, target!);
    },
  };
}

export const vnetActionsTable = table(NETWORK.vnet_actions, {
  description: "vnet actions: poweron, poweroff, killpower, reset, apply (refresh), applydns",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "vnet",
    targetTable: NETWORK.vnets,
    aliases: { refresh: "apply", apply_rules: "apply", kill: "killpower" },
    actions: {
      poweron: applyingFirst("power the vnet on", powerOnVnet),
      poweroff: { description: "power the vnet off", params: {}, handler: (ctx, { target }) => powerOffVnet(ctx, target!) },
      killpower: { description: "power the vnet off at once", params: {}, handler: (ctx, { target }) => killVnet(ctx, target!) },
      reset: applyingFirst("restart the vnet", resetVnet),
      apply: {
        description: "apply the vnet's rules (refresh); params.apply accepted",
        params: { apply: { type: "bool" } },
        handler: (ctx, { target }) => applyRules(ctx, target!),
      },
      applydns: { description: "apply the vnet's DNS settings", params: {}, handler: (ctx, { target }) => applyDns(ctx, target!) },
    },
  },
});
