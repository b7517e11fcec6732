/**
 * `vnets`: virtual networks. `network` is an IPv4 CIDR block; gateway and the
 * DHCP range must lie inside it (else the real API's
 * `Validation error on field: 'dhcp_start' - 'fails validation test'`).
 */
import { isIPv4 } from "node:net";
import { ApiError, validationError } from "../core/errors";
import type { Row, TableDef } from "./types";

const list = (...values: string[]): Record<string, string> => Object.fromEntries(values.map((v) => [v, v]));

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

export const vnetsTable: TableDef = {
  name: "vnets",
  description: "virtual networks",
  keyType: "int",
  unique: { field: "name", message: "a vnet with that name exists" },
  defaultFields: ["name", "description", "type", "network", "gateway", "dhcp_enabled", "dhcp_start", "dhcp_stop", "mtu", "enabled"],
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    description: { type: "text", default: "" },
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
    advanced_options: { type: "json", default: {}, notInMost: true, description: "options for the network's services; key dnsmasq holds an array of strings" },
    on_power_loss: { type: "string", default: "last_state", enum: list("power_on", "last_state", "leave_off") },
    interface_vnet: { type: "row", ref: "vnets", refMustExist: 404 },
    enabled: { type: "bool", default: true },
    need_fw_apply: { type: "bool", readOnly: true, default: false },
    need_dns_apply: { type: "bool", readOnly: true, default: false },
    need_restart: { type: "bool", readOnly: true, default: false },
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  hooks: {
    validate: (_ctx, row) => {
      checkAddresses(row);
      const advanced = row.advanced_options as Record<string, unknown> | null;
      if (advanced !== null && (typeof advanced !== "object" || Array.isArray(advanced))) {
        throw validationError("advanced_options", "must be an object");
      }
      if (advanced && advanced.dnsmasq !== undefined && !(Array.isArray(advanced.dnsmasq) && advanced.dnsmasq.every((s) => typeof s === "string"))) {
        throw validationError("advanced_options", "dnsmasq must be an array of strings");
      }
    },
    beforeDelete: (ctx, row) => {
      const users = ctx.find("machine_nics", (n) => n.vnet === row.$key);
      if (users.length) throw new ApiError(409, `vnet in use by ${users.length} NIC(s)`);
    },
  },
  seed: (ctx) => {
    ctx.insert("vnets", {
      name: "External", description: "uplink network", type: "external", layer2_type: "vlan", layer2_id: 0, network: "192.168.0.0/24",
      ipaddress: "192.168.0.2", gateway: "192.168.0.1", dns: "simple", dnslist: "1.1.1.1", domain: "", mtu: 1500, dhcp_enabled: false,
      dhcp_start: "", dhcp_stop: "", rate_limit: 0, rate_limit_burst: 0, rate_limit_type: "mbytes/second", advanced_options: {},
      on_power_loss: "last_state", interface_vnet: null, enabled: true, need_fw_apply: false, need_dns_apply: false, need_restart: false,
      created: ctx.nowSeconds(), modified: ctx.nowSeconds(),
    });
  },
};
