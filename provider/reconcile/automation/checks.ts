/**
 * The bad-input rules that need the platform, as check() runs them at
 * preview: reads only, never a mutating request. Each answers the problems
 * (field path and message) the pure rule finds in what the reads answered.
 */
import { eventChoiceProblems, type EventChoice, type Problem } from "../../schemas/automationRules";
import type { Session } from "../session";
import { sessionEventCatalog } from "./eventCatalog";
import { findMediaFile } from "./volumeFiles";

/** An event trigger's type, event, object and tag against the platform's catalog (read once per session). */
export async function eventChoiceCheck(api: Session, choice: EventChoice): Promise<Problem[]> {
  return eventChoiceProblems(choice, await sessionEventCatalog(api));
}

/**
 * A media path that is not a file on the volume. The listing is a volume-browser
 * job: a POST to a job table, which reads and changes nothing on the platform.
 */
export async function mediaPathCheck(api: Session, volume: string, path: string): Promise<Problem[]> {
  const found = await findMediaFile(api, volume, path);
  return "problems" in found ? found.problems : [];
}
