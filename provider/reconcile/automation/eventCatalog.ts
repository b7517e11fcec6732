/**
 * The event types the platform offers and the events of each: read from its
 * catalog table, so a trigger's type and event are checked at preview
 * (`eventChoiceProblems`) against what this platform accepts.
 */
import type { EventCatalog } from "../../schemas/automationRules";
import { str, type PlatformApi } from "../platform";

export const EVENT_CATALOG_TABLE = "task_event_types";

export async function readEventCatalog(api: PlatformApi): Promise<EventCatalog> {
  const rows = await api.list(EVENT_CATALOG_TABLE, { fields: "$key,events,generic", limit: 0 });
  return Object.fromEntries(
    rows.map((r) => [
      str(r.$key),
      { events: Array.isArray(r.events) ? r.events.map(str) : [], generic: r.generic === true || r.generic === "true" },
    ]),
  );
}
