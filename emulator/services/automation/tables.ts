/**
 * Tables of webhooks, tasks and events, with the REST field names the
 * vendor's public clients use: `webhook_urls` (webhook settings), `webhooks`
 * (the delivery log), `webhook_url_actions` (send), `tasks`, `task_actions`
 * (execute), `task_events`, `task_schedules` and `task_schedule_triggers`.
 */
import { randomHex, type EmulatorContext } from "../../engine/context";
import { ApiError, conflict, validationError } from "../../model/errors";
import type { Row, TableDef } from "../../model/types";
import { listedRows, namedFields, table, timestampFields, uniqueNames } from "../../model/tableParts";
import { deliver } from "./delivery";
import { eventsOfType, eventTypes, GENERIC_TYPES } from "./events";
import { AUTHORIZATION_TYPES, authorizationProblem, DEFAULT_HEADERS, parseHeaderLines, type AuthorizationType } from "./headers";
import { DEFAULT_MESSAGE, expandMessage, randomInteger } from "./message";
import { runtimeOf } from "./runtime";
import { runTask, TASK_OBJECT_ACTIONS, taskObjectOf, webhookKeyOf } from "./tasks";
import { AUTOMATION } from "../../model/names/automation";
import { TAGS } from "../../model/names/tags";
import { ownerReference } from "../../engine/ownerReference";

function removeWhere(ctx: EmulatorContext, table: string, predicate: (row: Row) => boolean): void {
  for (const row of ctx.find(table, predicate)) ctx.remove(table, row.$key);
}

export const webhookUrlsTable = table(AUTOMATION.webhook_urls, {
  description: "webhooks: where and how task messages are sent",
  ...uniqueNames("a webhook"),
  fields: {
    ...namedFields(),
    url: { type: "string", required: true, maxLength: 2048, pattern: /^https?:\/\/[^\s/?#]+[^\s]*$/i },
    type: { type: "string", default: "custom", enum: { custom: "Custom" } },
    headers: { type: "text", default: DEFAULT_HEADERS, description: "'Name: Value' lines, sent in this order" },
    authorization_type: { type: "string", default: "none", enum: AUTHORIZATION_TYPES },
    authorization_value: {
      type: "text",
      default: "",
      hidden: true,
      maxLength: 4096,
      description: "token, raw API key or user:password (write-only)",
    },
    allow_insecure: { type: "bool", default: false },
    timeout: { type: "uint32", default: 5, min: 3, max: 120, boundsMessage: "must be 3 or greater (at most 120)" },
    retries: { type: "uint32", default: 3, min: 0, max: 100 },
    ...timestampFields(),
  },
  hooks: {
    validate: (_ctx, row) => {
      const headers = parseHeaderLines(String(row.headers ?? ""));
      if (typeof headers === "string") throw validationError("headers", headers);
      const problem = authorizationProblem(row.authorization_type as AuthorizationType, String(row.authorization_value ?? ""));
      if (problem) throw validationError("authorization_value", problem);
    },
    beforeDelete: (ctx, row) => {
      const users = ctx.find(AUTOMATION.tasks, (t) => webhookKeyOf(t.owner) === String(row.$key));
      if (users.length) throw conflict(`webhook is used by task '${String(users[0].name)}'`);
    },
  },
});

export const webhooksTable = table(AUTOMATION.webhooks, {
  description: "webhook delivery log: queued → running → sent | error (newest 3000, at most 70 days)",
  ...listedRows("int", "delete"),
  fields: {
    webhook_url: { type: "row", ref: AUTOMATION.webhook_urls, readOnly: true },
    task: { type: "row", ref: AUTOMATION.tasks, readOnly: true, description: "null for a test send" },
    message: { type: "text", readOnly: true, description: "the payload sent, variables expanded" },
    status: { type: "string", readOnly: true, enum: { queued: "Queued", running: "Running", sent: "Sent", error: "Error" } },
    status_info: { type: "text", readOnly: true },
    attempts: { type: "uint32", readOnly: true },
    response_code: { type: "uint16", readOnly: true },
    last_attempt: { type: "uint64", readOnly: true },
    created: { type: "created", readOnly: true },
  },
});

export const webhookUrlActionsTable = table(AUTOMATION.webhook_url_actions, {
  description: "webhook actions: send (a test message; variables expanded, ${NAME} = the webhook's name)",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "webhook_url",
    targetTable: AUTOMATION.webhook_urls,
    defaultAction: "send",
    rowRoutes: ["post-path"], // POST /v4/webhook_urls/<key>/send {message} (py, ps clients)
    actions: {
      send: {
        description: "deliver a message now; answers the delivery log key in $key",
        params: { message: { type: "text", maxLength: 65536 } },
        handler: (ctx, { target, params }) => {
          const template = typeof params.message === "string" ? params.message : DEFAULT_MESSAGE;
          const message = expandMessage(template, { nowMs: ctx.now(), name: String(target!.name), random: randomInteger });
          const { log } = deliver(ctx, target!, message, null);
          return { body: { $key: String(log.$key) } };
        },
      },
    },
  },
});

/**
 * The owner and settings of a task, normalized: the object is `owner`
 * ("<table>/<key>": a webhook, a VM or a user), a webhook may instead be named
 * by `settings_args.webhook_url`; `action` must be one the object type offers;
 * a webhook task's message defaults to DEFAULT_MESSAGE.
 */
function normalizedTaskSettings(ctx: EmulatorContext, row: Record<string, unknown>): Record<string, unknown> {
  const args = row.settings_args ?? {};
  if (typeof args !== "object" || Array.isArray(args)) throw validationError("settings_args", "must be a JSON object");
  const settings = { ...(args as Record<string, unknown>) };
  const fromArgs =
    settings.webhook_url === undefined || settings.webhook_url === null
      ? undefined
      : ownerReference(AUTOMATION.webhook_urls, settings.webhook_url);
  const owner = row.owner ?? fromArgs;
  const types = Object.keys(TASK_OBJECT_ACTIONS).map((t) => `${t}/<key>`);
  if (owner === undefined || owner === null || owner === "") throw validationError("owner", `is required (${types.join(", ")})`);
  const object = taskObjectOf(owner);
  if (object === undefined) throw validationError("owner", `must be ${types.join(", ")}`);
  if (fromArgs !== undefined && fromArgs !== owner) throw validationError("settings_args", "webhook_url differs from owner");
  const actions = TASK_OBJECT_ACTIONS[object.table];
  const action = row.action ?? Object.keys(actions)[0];
  if (!Object.hasOwn(actions, String(action)))
    throw validationError(
      "action",
      `'${String(action)}' is not a valid option for ${object.table} (valid: ${Object.keys(actions).join(", ")})`,
    );
  if (!ctx.get(object.table, object.key)) throw new ApiError(404, `owner '${String(owner)}' not found`);
  if (object.table !== AUTOMATION.webhook_urls) return { owner, table: object.table, action, settings_args: settings };
  if (settings.message === undefined) settings.message = DEFAULT_MESSAGE;
  if (typeof settings.message !== "string") throw validationError("settings_args", "message must be a string");
  return { owner, table: AUTOMATION.webhook_urls, action, settings_args: settings };
}

export const tasksTable = table(AUTOMATION.tasks, {
  description:
    "automation rules: object type webhook (owner webhook_urls/<key>, action send), VM (vms/<key>: poweron, poweroff, kill) or user (users/<key>: enable, disable), run by events, schedules or task_actions execute",
  owner: "owner",
  ...uniqueNames("a task"),
  fields: {
    id: { type: "string", readOnly: true, description: "40-hex identifier" },
    ...namedFields({ enabled: true }),
    status: { type: "string", readOnly: true, default: "idle", enum: { idle: "Idle", running: "Running", error: "Error" } },
    status_info: { type: "text", readOnly: true, default: "" },
    table: { type: "string", readOnly: true, description: "object type: webhook_urls, vms or users (from owner)" },
    owner: { type: "string", description: "the object: webhook_urls/<key>, vms/<key> or users/<key>" },
    action: {
      type: "string",
      description: "send (webhook); poweron, poweroff, kill (VM); enable, disable (user); default the type's first",
    },
    action_display: { type: "string", compute: (_ctx, row) => TASK_OBJECT_ACTIONS[String(row.table)]?.[String(row.action)] ?? row.action },
    settings_args: {
      type: "json",
      description: "{message} (may contain ${DATE} ${TIMESTAMP} ${RANDOM} ${NAME}); webhook_url accepted instead of owner",
    },
    delete_after_run: { type: "bool", default: false },
    last_run: { type: "uint64", readOnly: true, default: 0 },
    system_created: { type: "bool", readOnly: true, default: false },
    creator: { type: "string", readOnly: true },
    ...timestampFields(),
    events: { type: "rows", ref: AUTOMATION.task_events, via: "task" },
    triggers: { type: "rows", ref: AUTOMATION.task_schedule_triggers, via: "task" },
    events_count: { type: "uint32", compute: (ctx, row) => ctx.find(AUTOMATION.task_events, (e) => e.task === row.$key).length },
    triggers_count: {
      type: "uint32",
      compute: (ctx, row) => ctx.find(AUTOMATION.task_schedule_triggers, (t) => t.task === row.$key).length,
    },
  },
  hooks: {
    validate: (ctx, row, previous) => {
      if (!previous) Object.assign(row, normalizedTaskSettings(ctx, row));
    },
    beforeCreate: (_ctx, row, caller) => {
      row.id = randomHex(40);
      row.creator = caller.user;
    },
    beforeUpdate: (ctx, row, changes) => {
      Object.assign(changes, normalizedTaskSettings(ctx, { ...row, ...changes }));
    },
    afterDelete: (ctx, row) => {
      removeWhere(ctx, AUTOMATION.task_events, (e) => e.task === row.$key);
      removeWhere(ctx, AUTOMATION.task_schedule_triggers, (t) => t.task === row.$key);
    },
  },
});

export const taskActionsTable = table(AUTOMATION.task_actions, {
  description: "task actions: execute (runs the task now; ${NAME} = the task's name)",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "task",
    targetTable: AUTOMATION.tasks,
    defaultAction: "execute",
    rowRoutes: ["put-query"], // PUT /v4/tasks/<key>?action=execute {params} (py client)
    actions: {
      execute: {
        description: "run the task now, enabled or not; answers the delivery log key in $key",
        params: {},
        handler: (ctx, { target }) => {
          if (runtimeOf(ctx).startedOnce.has(target!.$key)) throw conflict("one-time task has already run");
          const run = runTask(ctx, target!, String(target!.name));
          return { body: { task: String(target!.$key), ...(run ? { $key: String(run.log.$key) } : {}) } };
        },
      },
    },
  },
});

function checkTaskEvent(ctx: EmulatorContext, row: Row): void {
  const table = String(row.table);
  const events = eventsOfType(ctx, table);
  if (!events) throw validationError("table", `'${table}' is not a valid option (valid: ${eventTypes(ctx).join(", ")})`);
  if (!events.includes(String(row.event)))
    throw validationError("event", `'${String(row.event)}' is not a valid option for ${table} (valid: ${events.join(", ")})`);
  const hasOwner = row.owner !== null && row.owner !== undefined && row.owner !== "";
  const hasTag = row.tag !== null && row.tag !== undefined;
  if (Object.hasOwn(GENERIC_TYPES, table) && (hasOwner || hasTag)) {
    throw validationError(hasOwner ? "owner" : "tag", `${table} is a generic type: no object instance or tag`);
  }
  if (hasOwner && hasTag) throw validationError("tag", "use either an object instance (owner) or a tag, not both");
  if (hasOwner) {
    const match = new RegExp(`^${table}/([A-Za-z0-9]+)$`).exec(String(row.owner));
    if (!match) throw validationError("owner", `must be ${table}/<key>`);
    if (!ctx.get(table, match[1])) throw new ApiError(404, `owner '${String(row.owner)}' not found`);
  }
  const filters = row.table_event_filters;
  if (filters !== null && (typeof filters !== "object" || Array.isArray(filters))) {
    throw validationError("table_event_filters", "must be a JSON object of field: value");
  }
}

export const taskEventsTable = table(AUTOMATION.task_events, {
  description: "events that trigger tasks: table + event, narrowed to an object (owner), a tag or table_event_filters",
  keyType: "int",
  parent: "task",
  fields: {
    task: { type: "row", ref: AUTOMATION.tasks, required: true, refMustExist: 404 },
    table: { type: "string", required: true, description: "event type, e.g. vms" },
    event: { type: "string", required: true, description: "e.g. poweron, poweroff, created, deleted" },
    event_name: { type: "string", default: (row: Record<string, unknown>) => row.event },
    owner: { type: "string", default: null, description: "a specific object instance: <table>/<key>" },
    tag: { type: "row", ref: TAGS.tags, refMustExist: 404, description: "applies to every object carrying the tag" },
    table_event_filters: { type: "json", default: {}, description: "{field: value} the object must match" },
    context: { type: "json", default: {} },
    trigger: { type: "row", readOnly: true, default: null, description: "the platform's trigger row (none in this emulator)" },
    created: { type: "created", readOnly: true },
  },
  hooks: {
    validate: (ctx, row) => checkTaskEvent(ctx, row),
  },
});

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

export const taskSchedulesTable = table(AUTOMATION.task_schedules, {
  description: "schedules linked to tasks through task_schedule_triggers; an enabled schedule runs its enabled tasks (times in UTC)",
  ...uniqueNames("a schedule"),
  fields: {
    ...namedFields({ enabled: true }),
    repeat_every: {
      type: "string",
      default: "never",
      enum: { minute: "Minute", hour: "Hour", day: "Day", week: "Week", month: "Month", year: "Year", never: "Never" },
    },
    repeat_iteration: { type: "uint32", default: 1, min: 1 },
    start_date: { type: "uint64", default: 0, description: "Unix seconds: its UTC day is the first day; 0 = the creation time" },
    start_date_epoch: { type: "uint64", compute: (_ctx, row) => row.start_date, description: "start_date (the name some clients read)" },
    end_date: { type: "uint64", default: 0, description: "Unix seconds: no run after it; 0 = no end" },
    start_time_of_day: {
      type: "uint32",
      default: 0,
      max: 86400,
      description: "seconds after midnight (UTC): the run time, or the window's opening for minute/hour repeats",
    },
    end_time_of_day: { type: "uint32", default: 86400, max: 86400, description: "the window's end for minute/hour repeats" },
    all_day: { type: "bool", default: true, description: "minute/hour repeats run the whole day (the window is ignored)" },
    day_of_month: {
      type: "uint8",
      default: 0,
      max: 31,
      description: "month repeats: the date (past the month's end = its last day); 0 = the start date's",
    },
    ...Object.fromEntries(
      DAYS.map((day) => [day, { type: "bool" as const, default: true, description: "runs on this weekday (not for month/year repeats)" }]),
    ),
    task: {
      type: "row",
      ref: AUTOMATION.tasks,
      default: null,
      refMustExist: 404,
      description: "a task the schedule was made for (runs go by triggers)",
    },
    system_created: { type: "bool", readOnly: true, default: false },
    creator: { type: "string", readOnly: true, default: "" },
    ...timestampFields(),
  },
  hooks: {
    validate: (_ctx, row) => {
      if (Number(row.end_date) !== 0 && Number(row.end_date) < Number(row.start_date))
        throw validationError("end_date", "is before start_date");
      if (Number(row.end_time_of_day) < Number(row.start_time_of_day))
        throw validationError("end_time_of_day", "is before start_time_of_day");
    },
    beforeCreate: (_ctx, row, caller) => {
      row.creator = caller.user;
    },
    afterDelete: (ctx, row) => removeWhere(ctx, AUTOMATION.task_schedule_triggers, (t) => t.schedule === row.$key),
  },
});

export const taskScheduleTriggersTable = table(AUTOMATION.task_schedule_triggers, {
  description: "links of schedules to tasks",
  ...listedRows("int", "create", "delete"),
  fields: {
    task: { type: "row", ref: AUTOMATION.tasks, required: true, refMustExist: 404 },
    schedule: { type: "row", ref: AUTOMATION.task_schedules, required: true, refMustExist: 404 },
    trigger: { type: "row", readOnly: true, default: null, description: "the platform's trigger row (none in this emulator)" },
  },
  hooks: {
    beforeCreate: (ctx, row) => {
      if (ctx.find(AUTOMATION.task_schedule_triggers, (t) => t.task === row.task && t.schedule === row.schedule).length) {
        throw conflict("the schedule already triggers this task");
      }
    },
  },
});

export const taskEventTypesTable = table(AUTOMATION.task_event_types, {
  description: "the event catalog: each event type (a table, or a generic type such as alarms) with the events it offers",
  keyType: "string",
  transient: true,
  operations: ["list", "get"],
  fields: {
    events: { type: "json", readOnly: true, summary: true, description: "event names the type offers" },
    generic: { type: "bool", readOnly: true, description: "a generic type: no object instance and no tag" },
  },
});

export const automationTables: TableDef[] = [
  taskEventTypesTable,
  webhookUrlsTable,
  webhooksTable,
  webhookUrlActionsTable,
  tasksTable,
  taskActionsTable,
  taskEventsTable,
  taskSchedulesTable,
  taskScheduleTriggersTable,
];
