/**
 * EventTrigger (the spec's event; the table `task_events`): runs a task when
 * an event of a type happens, to one object, to the objects carrying a tag,
 * or to any object (generic types such as alarms have no objects). The type's
 * events come from the platform's catalog, so check() runs
 * `eventChoiceProblems` with the catalog a look-up read.
 */
import { z } from "zod";
import { apiField, keySchema, timeoutsSchema } from "../../schemas/common";
import type { FieldCodec } from "../../schemas/fieldCodec";
import { TASK_TABLE } from "../../schemas/tables";

/** `owner` is `<type>/<key>`: the key of the object, of the trigger's own type. */
const objectCodec: FieldCodec<string> = {
  columns: ["owner"],
  toApi: () => ({}), // sent with the type: see toEventTriggerApiBody
  fromApi(row) {
    const match = /^[^/]+\/(.+)$/.exec(typeof row.owner === "string" ? row.owner : "");
    return match ? match[1] : undefined;
  },
};

export const eventTriggerShape = {
  task: apiField(keySchema, "task", "key", "Key of the task to run (a Task's id). Changing it replaces the trigger", {
    onChange: "replace",
    references: { table: TASK_TABLE, noun: "task" },
  }),
  type: apiField(
    z.string().min(1),
    "table",
    "string",
    "Area of the system the event happens in, e.g. vms (see getEventTypes). Changing it replaces the trigger",
    {
      onChange: "replace",
    },
  ),
  event: apiField(z.string().min(1), "event", "string", "The event, one the type offers, e.g. poweroff for vms"),
  object: apiField(
    keySchema.optional(),
    "owner",
    "json",
    "Key of one object of the type (e.g. a VM's id): the trigger applies to it only",
    { codec: objectCodec },
  ),
  tag: apiField(
    keySchema.optional(),
    "tag",
    "key",
    "Key of a tag: the trigger applies to every object of the type carrying it (not with object)",
    { references: { table: "tags", noun: "tag" } },
  ),
  timeouts: timeoutsSchema,
};

export const eventTriggerInputsSchema = z.strictObject(eventTriggerShape);
export type EventTriggerInputs = z.output<typeof eventTriggerInputsSchema>;

/**
 * Finishes the body: the narrowing (`owner` = `<type>/<object>`, `tag`) is sent whole
 * whenever the object or the tag is among `inputs` (an update lists what
 * changed, `whole` holds the rest): a removed object or tag is sent as null,
 * and the trigger then applies to any object of its type.
 */
export function narrowTriggerBody(
  body: Record<string, unknown>,
  inputs: Partial<EventTriggerInputs>,
  mode: "create" | "update",
  whole: Partial<EventTriggerInputs>,
): Record<string, unknown> {
  if (mode === "create" || "object" in inputs || "tag" in inputs) {
    body.owner = whole.object === undefined ? null : `${whole.type}/${whole.object}`;
    body.tag = whole.tag ?? null;
  }
  return body;
}
