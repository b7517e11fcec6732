import { eventChoiceCheck } from "../../reconcile/automation/checks";
import { type EventTriggerInputs, eventTriggerInputsSchema, eventTriggerShape, narrowTriggerBody } from "./schema";
import { asFailures } from "../framework/automationRow";
import { defineResource } from "../framework/defineResource";
import { EVENT_TRIGGER_TABLE } from "../../schemas/tables";

/** The fields the event catalog judges: while one is unknown (preview), the check waits for the run that knows it. */
const CHOICE = ["type", "event", "object", "tag"] as const;

export const eventTrigger = defineResource<EventTriggerInputs, EventTriggerInputs>({
  token: "EventTrigger",
  table: EVENT_TRIGGER_TABLE,
  description:
    "Runs a task when an event of a type happens: to one object, to the objects carrying a tag, or to any. Changing task or type replaces it.",
  schema: eventTriggerInputsSchema,
  shape: eventTriggerShape,
  // No name, no field to mark: a trigger with the same fields does the same, so it is found by its content.
  names: "free",
  marker: "none",
  finishBody: narrowTriggerBody,
  hooks: () => ({
    verify: async (api, inputs, unknown) => (CHOICE.some((f) => unknown.has(f)) ? [] : asFailures(await eventChoiceCheck(api, inputs))),
  }),
});
