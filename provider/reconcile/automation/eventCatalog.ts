/**
 * The event types the platform offers and the events of each: read from its
 * catalog table, so a trigger's type and event are checked at preview
 * (`eventChoiceProblems`) against what this platform accepts.
 */
import type { EventCatalog } from "../../schemas/automationRules";
import { str, type PlatformApi } from "../platform";
import { perSession, type Session } from "../session";
import { EVENT_CATALOG_TABLE } from "../../schemas/tables";

export async function readEventCatalog(api: PlatformApi): Promise<EventCatalog> {
  const rows = await api.list(EVENT_CATALOG_TABLE, { fields: "$key,events,generic", limit: 0 });
  return Object.fromEntries(
    rows.map((r) => [
      str(r.$key),
      { events: Array.isArray(r.events) ? r.events.map(str) : [], generic: r.generic === true || r.generic === "true" },
    ]),
  );
}

/** The catalog read once per session: every trigger of a preview is checked against one read (a failed read is tried again). */
const catalogRead = perSession((): { reading?: Promise<EventCatalog> } => ({}));

export function sessionEventCatalog(session: Session): Promise<EventCatalog> {
  const memo = catalogRead(session);
  if (!memo.reading) {
    const reading = readEventCatalog(session);
    memo.reading = reading;
    reading.catch(() => {
      if (memo.reading === reading) memo.reading = undefined;
    });
  }
  return memo.reading;
}
