import { eventChoiceCheck } from "../../reconcile/automation/checks";
import { eventTriggerRows } from "./platform";
import { type EventTriggerInputs, eventTriggerInputsSchema, eventTriggerShape } from "./schema";
import { asFailures, rowBehaviour } from "../framework/automationRow";
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
  verify: async (api, inputs, unknown) => (CHOICE.some((f) => unknown.has(f)) ? [] : asFailures(await eventChoiceCheck(api, inputs))),
  ...rowBehaviour(eventTriggerShape, eventTriggerRows),
});
