/**
 * `vplatform env roster`: who has what, per copy of a lab, with the live
 * power state and first IP address of each VM. The reads are one list
 * request per table for all the VMs (machine_status for power and the guest
 * agent's addresses, machine_nics for addresses the NICs carry), never one
 * per VM. Rendering is pure: Markdown (a table a course leader pastes), CSV,
 * JSON; API-key secrets only as the caller read them (masked by default).
 * Each VM's web console link is built as the maker's clients build it
 * (pyVergeOS: `https://<host>/#/vm-console/<vmKey>`).
 */
import type { PlatformApi, Row } from "../provider/reconcile/platform";
import { keyFilter } from "../provider/reconcile/statusPoller";
import { filterLiteral } from "../provider/client/query-string";
import { MACHINE_STATUS_TABLE, NIC_TABLE } from "../provider/schemas/tables";
import type { ChosenCopies, LabCopy } from "./lab-outputs";

export interface LiveVm {
  /** The machine's status (`running`, `stopped`, ...), or `missing` when the platform has no such machine. */
  power: string;
  /** The first address the guest agent or a NIC reports; absent when none does. */
  ip?: string;
}

export interface RosterVm extends LiveVm {
  /** The VM's name in the lab's template (`web`). */
  vm: string;
  name: string;
  vmKey: string;
  machineKey: string;
  /** The platform's web console of the VM (a student's key opens its own copy's only). */
  console: string;
}

/** The web console link of a VM, as the maker's clients build it: the platform's address, `/#/vm-console/<vmKey>`. */
export function vmConsoleUrl(endpoint: string, vmKey: string): string {
  return `${new URL(endpoint).origin}/#/vm-console/${encodeURIComponent(vmKey)}`;
}

export interface RosterCopy {
  number: number;
  name: string;
  user?: string;
  apiKey?: string;
  vnet: string;
  network: string;
  vms: RosterVm[];
}

export interface Roster {
  lab: string;
  copies: RosterCopy[];
}

/** Rows whose `column` is one of `values`, 100 values a request (the query string stays short). */
async function listWhereIn(api: PlatformApi, table: string, column: string, values: string[], fields: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < values.length; i += 100) {
    const chunk = values.slice(i, i + 100);
    const filter = column === "$key" ? keyFilter(chunk) : chunk.map((v) => `${column} eq ${filterLiteral(v)}`).join(" or ");
    rows.push(...(await api.list(table, { filter, fields, limit: 0 })));
  }
  return rows;
}

const usable = (ip: unknown): ip is string => typeof ip === "string" && ip !== "" && !/^(127\.|::1$|fe80:)/i.test(ip);

/**
 * The first address in the guest agent's report: `network[]` (or the list
 * itself) of interfaces, each with `ip-addresses[]` of strings or
 * `{ "ip-address": ... }`, as the QEMU agent answers. Loopback and link-local
 * addresses are no one's address.
 */
export function firstGuestIp(info: unknown): string | undefined {
  const interfaces = Array.isArray(info) ? info : (info as { network?: unknown } | null)?.network;
  if (!Array.isArray(interfaces)) return undefined;
  for (const nic of interfaces) {
    const addresses = (nic as Record<string, unknown> | null)?.["ip-addresses"];
    if (!Array.isArray(addresses)) continue;
    for (const a of addresses) {
      const ip = typeof a === "string" ? a : (a as Record<string, unknown> | null)?.["ip-address"];
      if (usable(ip)) return ip;
    }
  }
  return undefined;
}

/** Power state and first IP of every VM of the copies: two list requests per 100 VMs. */
export async function readLive(api: PlatformApi, copies: LabCopy[]): Promise<Map<string, LiveVm>> {
  const machines = copies.flatMap((c) => Object.values(c.vms).map((vm) => vm.machineKey));
  if (machines.length === 0) return new Map();
  const [statuses, nics] = await Promise.all([
    listWhereIn(api, MACHINE_STATUS_TABLE, "$key", machines, "$key,status,agent_guest_info"),
    listWhereIn(api, NIC_TABLE, "machine", machines, "$key,machine,ipaddress"),
  ]);
  const nicIp = new Map<string, string>();
  for (const nic of [...nics].sort((a, b) => Number(a.$key) - Number(b.$key)))
    if (usable(nic.ipaddress) && !nicIp.has(String(nic.machine))) nicIp.set(String(nic.machine), nic.ipaddress);
  const byMachine = new Map(statuses.map((s) => [String(s.$key), s]));
  return new Map(
    machines.map((m) => {
      const status = byMachine.get(m);
      const ip = firstGuestIp(status?.agent_guest_info) ?? nicIp.get(m);
      return [m, { power: status ? String(status.status) : "missing", ...(ip ? { ip } : {}) }];
    }),
  );
}

/** The roster of the chosen copies with what was read live; console links on the platform at `endpoint`. */
export function buildRoster({ lab, copies }: ChosenCopies, live: Map<string, LiveVm>, endpoint: string): Roster {
  return {
    lab,
    copies: copies.map((c) => ({
      number: c.number,
      name: c.name,
      ...(c.user ? { user: c.user.name } : {}),
      ...(c.apiKey ? { apiKey: c.apiKey.secret } : {}),
      vnet: c.vnet.name,
      network: c.vnet.network,
      vms: Object.entries(c.vms).map(([vm, v]) => ({
        vm,
        name: v.name,
        vmKey: v.id,
        machineKey: v.machineKey,
        console: vmConsoleUrl(endpoint, v.id),
        ...(live.get(v.machineKey) ?? { power: "unknown" }),
      })),
    })),
  };
}

/** A Markdown table cell: pipes escaped, line breaks as <br>. */
const cell = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");

export function renderRosterMarkdown(r: Roster): string {
  const hasUsers = r.copies.some((c) => c.user !== undefined);
  const hasKeys = r.copies.some((c) => c.apiKey !== undefined);
  const head = ["#", "Copy", ...(hasUsers ? ["User"] : []), ...(hasKeys ? ["API key"] : []), "Network", "VMs"];
  const vmLine = (v: RosterVm) => `${v.vm}: ${v.name} (VM ${v.vmKey}), ${v.power}${v.ip ? `, ${v.ip}` : ""}, [console](${v.console})`;
  const rows = r.copies.map((c) => [
    String(c.number),
    c.name,
    ...(hasUsers ? [c.user ?? ""] : []),
    ...(hasKeys ? [c.apiKey === undefined ? "" : `\`${c.apiKey}\``] : []),
    `${c.vnet} ${c.network}`,
    c.vms.map(vmLine).join("\n"),
  ]);
  const line = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [
    `## Lab ${r.lab}: ${r.copies.length} ${r.copies.length === 1 ? "copy" : "copies"}`,
    "",
    line(head),
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map(line),
    "",
  ].join("\n");
}

const CSV_HEAD = [
  "lab",
  "number",
  "copy",
  "user",
  "api_key",
  "vnet",
  "network",
  "vm",
  "vm_name",
  "vm_key",
  "machine_key",
  "power",
  "ip",
  "console",
];

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
const csvField = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** One row per VM (a spreadsheet sorts and filters it). */
export function renderRosterCsv(r: Roster): string {
  const rows = r.copies.flatMap((c) =>
    c.vms.map((v) => [
      r.lab,
      String(c.number),
      c.name,
      c.user ?? "",
      c.apiKey ?? "",
      c.vnet,
      c.network,
      v.vm,
      v.name,
      v.vmKey,
      v.machineKey,
      v.power,
      v.ip ?? "",
      v.console,
    ]),
  );
  return `${[CSV_HEAD, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
}

export function renderRosterJson(r: Roster): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
