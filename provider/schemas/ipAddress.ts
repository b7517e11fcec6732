/**
 * IP addresses and CIDR blocks of both families, parsed without node:net (only
 * provider/client may load network modules): API-key allow and deny lists take
 * either, and a wrong entry must be refused at check, before any request.
 */
import { ipv4ToInt } from "./common";

const HEXTET = /^[0-9a-fA-F]{1,4}$/;

/** Whether `text` is an IPv6 address: eight hextets, one `::` for a run of zeros, an IPv4 tail allowed; no zone. */
export function isIpv6(text: string): boolean {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...tail];
  const last = all[all.length - 1];
  const v4Tail = last?.includes(".");
  if (v4Tail && ipv4ToInt(last) === undefined) return false;
  const hextets = v4Tail ? all.slice(0, -1) : all;
  if (!hextets.every((g) => HEXTET.test(g))) return false;
  const width = hextets.length + (v4Tail ? 2 : 0);
  return halves.length === 2 ? width < 8 : width === 8;
}

export type IpFamily = 4 | 6;

/** The family of an address, or undefined when `text` is no address. */
export function ipFamily(text: string): IpFamily | undefined {
  if (ipv4ToInt(text) !== undefined) return 4;
  return isIpv6(text) ? 6 : undefined;
}

/** Whether `text` is an address or a CIDR block (`address/bits`, bits within the family's width). */
export function isAddressOrCidr(text: string): boolean {
  const parts = text.split("/");
  if (parts.length > 2) return false;
  const family = ipFamily(parts[0]);
  if (family === undefined) return false;
  if (parts.length === 1) return true;
  return /^\d{1,3}$/.test(parts[1]) && Number(parts[1]) <= (family === 4 ? 32 : 128);
}
