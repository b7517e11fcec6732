/**
 * API-key IP allow/deny lists. Entries are addresses or CIDR blocks (IPv4 or
 * IPv6). Rule (spec, Authentication 6): with an allow list, only listed
 * addresses pass, and an address on both lists passes (the allow list
 * decides); without one, an address on the deny list is refused.
 */
import { BlockList, isIP } from "node:net";

/** Parses "a, b" text or an array of strings / `{address|ip, enabled}` objects into entries. */
export function parseIpList(value: unknown): string[] {
  if (value === null || value === undefined || value === "") return [];
  const items = typeof value === "string" ? value.split(/[,\s]+/) : Array.isArray(value) ? value : [value];
  const entries: string[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      if (item.trim()) entries.push(item.trim());
    } else if (item && typeof item === "object") {
      const o = item as Record<string, unknown>;
      const address = o.address ?? o.ip ?? o.cidr;
      if (o.enabled === false || o.enabled === "false") continue;
      if (typeof address === "string" && address.trim()) entries.push(address.trim());
      else throw new Error("IP list entries need an address");
    } else {
      throw new Error("IP list entries must be strings or objects");
    }
  }
  for (const entry of entries) if (!isValidEntry(entry)) throw new Error(`'${entry}' is not an IP address or CIDR block`);
  return entries;
}

export function isValidEntry(entry: string): boolean {
  const [address, bits, extra] = entry.split("/");
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (!family) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** "::ffff:10.0.0.1" → "10.0.0.1" so IPv4 entries match dual-stack sockets. */
export function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function listContains(entries: string[], address: string): boolean {
  const ip = normalizeAddress(address);
  const family = isIP(ip);
  if (!family) return false;
  const list = new BlockList();
  for (const entry of entries) {
    const [base, bits] = entry.split("/");
    const entryFamily = isIP(base) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(base, entryFamily);
    else list.addSubnet(base, Number(bits), entryFamily);
  }
  return list.check(ip, family === 6 ? "ipv6" : "ipv4");
}

export function ipAllowed(allow: string[], deny: string[], address: string): boolean {
  if (allow.length > 0) return listContains(allow, address);
  return !listContains(deny, address);
}
