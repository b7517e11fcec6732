/**
 * What the web console shows, as one JSON document (`GET /ui/state`): every list is read through the emulator's
 * own query engine with an explicit field list — the same `fields`/`filter`/`sort` a client would send — so the
 * console sees what the API answers, and no hidden field (password, API key secret, webhook credential) can
 * reach the page. Beside the tables: the request log, the per-caller counts and hour budgets, the armed faults and the chaos rules.
 */
import type { ChaosRule } from "../admin/chaos";
import type { Fault } from "../admin/faults";
import type { CounterEntry } from "../admin/requestCounter";
import type { EmulatorContext } from "../engine/context";
import { listRows, type ListQuery } from "../engine/read";
import type { LoggedRequest } from "./requestLog";
import { COMPUTE } from "../model/names/compute";
import { NETWORK } from "../model/names/network";
import { IDENTITY } from "../model/names/identity";
import { AUTOMATION } from "../model/names/automation";

interface Listing extends ListQuery {
  table: string;
}

/** One entry per list the page shows; the page joins hardware to its VM by `machine`. */
export const CONSOLE_LISTINGS = {
  vms: {
    table: COMPUTE.vms,
    filter: "is_snapshot eq false",
    sort: "name",
    fields:
      "$key,name,machine,cpu_cores,ram,machine#status#running as running,machine#status#status as status," +
      "machine#status#node#name as node",
  },
  drives: { table: COMPUTE.machine_drives, fields: "$key,machine,name,media,interface,disksize,status#status as status" },
  nics: { table: COMPUTE.machine_nics, fields: "$key,machine,name,interface,macaddress,vnet#name as vnet,status#status as status" },
  devices: { table: COMPUTE.machine_devices, fields: "$key,machine,name,type,resource_group#name as group,status#status as status" },
  vnets: { table: NETWORK.vnets, sort: "name", fields: "$key,name,type,network,running,machine#status#status as status" },
  users: { table: IDENTITY.users, sort: "name", fields: "$key,name,role,type,enabled" },
  apiKeys: { table: IDENTITY.user_api_keys, sort: "name", fields: "$key,name,user#name as user,expires,lastlogin_stamp" },
  groups: { table: IDENTITY.groups, sort: "name", fields: "$key,name,identity,enabled" },
  grants: { table: IDENTITY.permissions, fields: "$key,identity,identity_table,identity_key,table,row,list,read,create,modify,delete" },
  webhooks: { table: AUTOMATION.webhook_urls, sort: "name", fields: "$key,name,url,authorization_type" },
  deliveries: {
    table: AUTOMATION.webhooks,
    sort: "-$key",
    limit: 25,
    fields: "$key,webhook_url#name as webhook,task#name as task,status,status_info as outcome,attempts,created",
  },
  tasks: { table: AUTOMATION.tasks, sort: "name", fields: "$key,name,enabled,status,last_run,events_count,triggers_count" },
  taskEvents: { table: AUTOMATION.task_events, fields: "$key,task#name as task,table,event" },
  taskSchedules: {
    table: AUTOMATION.task_schedule_triggers,
    fields: "$key,task#name as task,schedule#name as schedule,schedule#repeat_every as every",
  },
} satisfies Record<string, Listing>;

export type ConsoleLists = Record<keyof typeof CONSOLE_LISTINGS, Record<string, unknown>[]>;

export interface Budget {
  caller: string;
  used: number;
  left: number;
  resetsInS: number;
}

export interface ConsoleState {
  at: number;
  lists: ConsoleLists;
  requests: { total: number; byCaller: Record<string, number>; perHour: number; budgets: Budget[]; recent: LoggedRequest[] };
  faults: Fault[];
  chaos: ChaosRule[];
}

/** Where the request figures come from (the server's counter, rate limiter, fault switch, chaos rules and the console's log). */
export interface RequestSources {
  counter: { snapshot(): { total: number; byKey: Record<string, number>; entries: CounterEntry[] } };
  rateLimiter: { perHour: number; usage(): { id: string; used: number; left: number; resetsInS: number }[] };
  faults: { list(): Fault[] };
  chaos: { list(): ChaosRule[] };
  log: { latest(count: number): LoggedRequest[] };
}

export function consoleLists(ctx: EmulatorContext): ConsoleLists {
  const lists = {} as ConsoleLists;
  for (const [name, { table, ...query }] of Object.entries(CONSOLE_LISTINGS) as [keyof ConsoleLists, Listing][]) {
    const store = ctx.tables.get(table);
    lists[name] = store ? listRows(ctx, store.def, query) : [];
  }
  return lists;
}

/** The rate limiter names a caller `<user>/<API key name>`; the counter and the page name it by the key alone. */
export function budgetsOf(usage: { id: string; used: number; left: number; resetsInS: number }[]): Budget[] {
  return usage.map(({ id, ...figures }) => ({ caller: id.slice(id.indexOf("/") + 1), ...figures }));
}

export function consoleState(ctx: EmulatorContext, sources: RequestSources): ConsoleState {
  const counted = sources.counter.snapshot();
  return {
    at: ctx.now(),
    lists: consoleLists(ctx),
    requests: {
      total: counted.total,
      byCaller: counted.byKey,
      perHour: sources.rateLimiter.perHour,
      budgets: budgetsOf(sources.rateLimiter.usage()),
      recent: sources.log.latest(50),
    },
    faults: sources.faults.list(),
    chaos: sources.chaos.list(),
  };
}
