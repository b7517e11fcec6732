/**
 * Task: sends a message through a webhook (the spec's object type Webhook,
 * action Send) when an event trigger or a schedule runs it, or acts on a VM
 * (power on, power off, kill) or a user (enable, disable), as the maker's Task
 * Engine does. The message may use ${DATE}, ${TIMESTAMP}, ${RANDOM} and
 * ${NAME}, and nothing else.
 */
import { z } from "zod";
import { adoptSchema, apiField, keySchema, timeoutsSchema, whenValid } from "../../schemas/common";
import { messageVariableProblems, type Problem, raise } from "../../schemas/automationRules";
import { jsonMemberCodec, ownerKeyCodec } from "../../schemas/fieldCodec";
import { USER_TABLE, VM_TABLE, WEBHOOK_TABLE } from "../../schemas/tables";

/** The actions of each object a task may act on, the first its default. */
export const TASK_OBJECT_ACTIONS = {
  webhook: ["send"],
  vm: ["poweron", "poweroff", "kill"],
  user: ["enable", "disable"],
} as const;
const TASK_ACTIONS = ["send", "poweron", "poweroff", "kill", "enable", "disable"] as const;
type TaskObject = keyof typeof TASK_OBJECT_ACTIONS;

/** A task names exactly one object (webhook, vm or user), and an action that object offers (a VM's or a user's given). */
export function taskObjectProblems(t: { webhook?: unknown; vm?: unknown; user?: unknown; action?: string }): Problem[] {
  const given = (Object.keys(TASK_OBJECT_ACTIONS) as TaskObject[]).filter((o) => t[o] !== undefined);
  if (given.length !== 1) {
    return [
      {
        path: [given[1] ?? "webhook"],
        message: `give exactly one of webhook, vm or user (${given.length ? given.join(" and ") : "none"} given)`,
      },
    ];
  }
  const actions: readonly string[] = TASK_OBJECT_ACTIONS[given[0]];
  if (t.action === undefined && given[0] !== "webhook")
    return [{ path: ["action"], message: `is required for a ${given[0]} task: ${actions.join(", ")}` }];
  if (t.action !== undefined && !actions.includes(t.action)) {
    return [{ path: ["action"], message: `'${t.action}' is not an action of a ${given[0]} task: ${actions.join(", ")}` }];
  }
  return [];
}

/** The spec: "a basic key/value pair whose value is the string Webhook". */
export const DEFAULT_TASK_MESSAGE = '{"message": "Webhook"}';

export const taskShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Task name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether events and schedules run the task"),
  webhook: apiField(keySchema.optional(), "owner", "json", "Key of the webhook the task sends to (a Webhook's id); or give vm or user", {
    codec: ownerKeyCodec("owner", WEBHOOK_TABLE),
    references: { table: WEBHOOK_TABLE, noun: "webhook" },
  }),
  vm: apiField(
    keySchema.optional(),
    "owner",
    "json",
    "Key of the VM the task acts on (a VirtualMachine's id), with action poweron, poweroff or kill",
    {
      codec: ownerKeyCodec("owner", VM_TABLE),
      references: { table: VM_TABLE, noun: "VM" },
    },
  ),
  user: apiField(keySchema.optional(), "owner", "json", "Key of the user the task acts on (a User's id), with action enable or disable", {
    codec: ownerKeyCodec("owner", USER_TABLE),
    references: { table: USER_TABLE, noun: "user" },
  }),
  action: apiField(
    z.enum(TASK_ACTIONS).optional(),
    "action",
    "string",
    "What the task does: send (a webhook's, the default), poweron, poweroff, kill (a VM's), enable, disable (a user's)",
  ),
  message: apiField(
    z.string().max(65536).default(DEFAULT_TASK_MESSAGE),
    "settings_args",
    "json",
    'Payload sent (default {"message": "Webhook"}); ${DATE}, ${TIMESTAMP}, ${RANDOM} and ${NAME} are expanded',
    { codec: jsonMemberCodec("settings_args", "message") },
  ),
  deleteAfterRunning: apiField(
    z.boolean().default(false),
    "delete_after_run",
    "bool",
    "One-time task: the platform deletes it after its first run (the next update then creates it again). Changing it replaces the task",
    { onChange: "replace" },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const taskInputsSchema = z.strictObject(taskShape).superRefine(
  (t, ctx) => {
    raise(ctx, messageVariableProblems(t.message));
    raise(ctx, taskObjectProblems(t));
  },
  whenValid("message", "webhook", "vm", "user", "action"),
);
export type TaskInputs = z.output<typeof taskInputsSchema>;
