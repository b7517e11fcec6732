/**
 * The bad-input rules of users, API keys, webhooks, tasks, event triggers and
 * schedules: small pure functions, each answering the problems it finds (the
 * field, by its input path, and a message that names it and says what to do)
 * or none. The schemas run the rules that need only the inputs; the rules
 * that need the platform take what a look-up answered, so check() can run
 * them at preview with reads only.
 */
import type { z } from "zod";
import { isAddressOrCidr } from "./ipAddress";

export interface Problem {
  /** Input path, e.g. ["ipAllowList", 2, "address"]. */
  path: (string | number)[];
  message: string;
}

/** Raises each problem as an issue of a schema's refinement. */
export function raise(ctx: z.RefinementCtx, problems: readonly Problem[]): void {
  for (const p of problems) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
}

const problem = (path: (string | number)[], message: string): Problem[] => [{ path, message }];

export interface IpEntry {
  address: string;
  enabled?: boolean;
}

/** Every entry of an allow or deny list that is neither an address nor a CIDR block, IPv4 or IPv6. */
export function ipListProblems(field: string, entries: readonly IpEntry[]): Problem[] {
  return entries.flatMap((entry, i) =>
    isAddressOrCidr(entry.address)
      ? []
      : problem(
          [field, i, "address"],
          `'${entry.address}' is neither an IP address nor a CIDR block: ` +
            "write an address (10.0.0.5, 2001:db8::5) or a block (10.0.0.0/24, 2001:db8::/32)",
        ),
  );
}

/** `never` and undefined never expire. */
export const neverExpires = (expires: string | undefined): expires is "never" | undefined => expires === undefined || expires === "never";

/** An expiry date that is not after now. */
export function expiryProblems(expires: string | undefined, nowMs: number): Problem[] {
  if (neverExpires(expires)) return [];
  const at = Date.parse(expires);
  if (Number.isNaN(at))
    return problem(
      ["expires"],
      `expires '${expires}' is no date: write an ISO date such as 2030-01-31 or 2030-01-31T12:00:00Z, or "never"`,
    );
  if (at <= nowMs) {
    return problem(["expires"], `expires ${expires} is in the past: give a later date, or "never" for a key that does not expire`);
  }
  return [];
}

/** The spec: a webhook's timeout is 3 seconds or greater. */
export const MIN_WEBHOOK_TIMEOUT = 3;

export function webhookTimeoutProblems(timeout: number | undefined): Problem[] {
  if (timeout === undefined || timeout >= MIN_WEBHOOK_TIMEOUT) return [];
  return problem(
    ["timeout"],
    `timeout ${timeout} is below ${MIN_WEBHOOK_TIMEOUT}: the platform waits at least ${MIN_WEBHOOK_TIMEOUT} seconds, so give 3 or more`,
  );
}

/** The spec: a bearer token is the token only, without the word Bearer. */
export function bearerTokenProblems(path: (string | number)[], token: string): Problem[] {
  if (!/^bearer(\s|$)/i.test(token.trim())) return [];
  return problem(path, `${path.join(".")} starts with 'Bearer': give the token alone, the platform adds the word`);
}

/** The spec: an API key value is the raw key, no prefix (a scheme word and a space, such as `ApiKey abc`). */
export function apiKeyValueProblems(path: (string | number)[], key: string): Problem[] {
  const prefix = /^(\S+)\s+\S/.exec(key.trim());
  if (!prefix) return [];
  return problem(path, `${path.join(".")} has the prefix '${prefix[1]}': give the raw key alone, without a prefix`);
}

export interface Header {
  name: string;
  value: string;
}

/** HTTP header names are tokens. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header without a name, with a name that is no HTTP token, or with a line break in its value. */
export function headerProblems(headers: readonly Header[]): Problem[] {
  return headers.flatMap((header, i) => {
    if (header.name.trim() === "")
      return problem(["headers", i, "name"], `headers[${i}] has no name: give the header's name (e.g. X-Source), or remove the entry`);
    if (!HEADER_NAME.test(header.name)) {
      return problem(
        ["headers", i, "name"],
        `headers[${i}] name '${header.name}' is not a valid header name: use letters, digits and - (no spaces or colons)`,
      );
    }
    if (/[\r\n\0]/.test(header.value))
      return problem(["headers", i, "value"], `headers[${i}] (${header.name}) value holds a line break: write it on one line`);
    return [];
  });
}

/** The spec's message variables, and nothing else. */
export const MESSAGE_VARIABLES = ["DATE", "TIMESTAMP", "RANDOM", "NAME"] as const;

/** Every `${X}` in a task message that is not one of the four variables. */
export function messageVariableProblems(message: string): Problem[] {
  const unknown = [...message.matchAll(/\$\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((v) => !(MESSAGE_VARIABLES as readonly string[]).includes(v));
  if (unknown.length === 0) return [];
  const list = [...new Set(unknown)].map((v) => `\${${v}}`).join(", ");
  const allowed = MESSAGE_VARIABLES.map((v) => `\${${v}}`).join(", ");
  return problem(
    ["message"],
    `message uses ${list}: only ${allowed} are expanded, so remove or correct ${unknown.length > 1 ? "them" : "it"}`,
  );
}

/** The events one event type offers; generic types (alarms) take no object and no tag. */
export interface EventTypeInfo {
  events: readonly string[];
  generic: boolean;
}

export type EventCatalog = Readonly<Record<string, EventTypeInfo>>;

export interface EventChoice {
  type: string;
  event: string;
  object?: string;
  tag?: string;
}

/**
 * An event type the platform does not have, an event its type does not have,
 * an object or tag given for a generic type, and a tag given with an object.
 */
export function eventChoiceProblems(choice: EventChoice, catalog: EventCatalog): Problem[] {
  const both = choice.object !== undefined && choice.tag !== undefined;
  const eitherNotBoth = both
    ? problem(["tag"], "object and tag are both given: an event applies to one object or to the objects carrying a tag, so give one")
    : [];
  const info = Object.hasOwn(catalog, choice.type) ? catalog[choice.type] : undefined;
  if (!info)
    return [
      ...problem(
        ["type"],
        `type '${choice.type}' is not an event type of the platform: use one of ${Object.keys(catalog).sort().join(", ")}`,
      ),
      ...eitherNotBoth,
    ];
  const events = info.events.includes(choice.event)
    ? []
    : problem(["event"], `event '${choice.event}' is not an event of type ${choice.type}: use one of ${info.events.join(", ")}`);
  if (!info.generic) return [...events, ...eitherNotBoth];
  const given = (["object", "tag"] as const).filter((f) => choice[f] !== undefined);
  return [
    ...events,
    ...given.flatMap((f) => problem([f], `${f} is given, but ${choice.type} is a generic type that applies to no ${f}: remove ${f}`)),
  ];
}

/** A schedule that ends before it starts (both ISO dates; an absent end never ends). */
export function scheduleWindowProblems(start: string | undefined, end: string | undefined): Problem[] {
  if (start === undefined || end === undefined) return [];
  const [from, to] = [Date.parse(start), Date.parse(end)];
  if (Number.isNaN(from) || Number.isNaN(to) || to >= from) return [];
  return problem(["end"], `end ${end} is before start ${start}: give an end after the start, or leave end out for no end`);
}

export interface VolumeEntry {
  name: string;
  type: string;
}

/** A media path that is not a file on the volume (`entries` lists the directory the path names; undefined when it is missing). */
export function mediaPathProblems(path: string, volume: string, entries: readonly VolumeEntry[] | undefined): Problem[] {
  const name = path.split("/").filter(Boolean).pop() ?? "";
  const entry = entries?.find((e) => e.name === name);
  if (entry?.type === "file") return [];
  const why = entry ? "is a directory on" : "is not on";
  return problem(
    ["path"],
    `path '${path}' ${why} the volume '${volume}': give the path of a file on it, relative to the volume's root (e.g. images/ubuntu.iso)`,
  );
}

/** A file on the volume that the platform keeps no media file for: not an ISO or disk image. */
export function notMediaProblems(path: string, volume: string): Problem[] {
  return problem(
    ["path"],
    `path '${path}' on the volume '${volume}' is no media file: ` +
      "give the path of an ISO or disk image (iso, qcow2, raw, vmdk, vhd, vhdx, ova, ovf, img)",
  );
}
