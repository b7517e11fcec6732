/**
 * The tasks a schedule runs are rows of `task_schedule_triggers` (task,
 * schedule): reconciled by adding the missing links and deleting the extra
 * ones, never by touching the schedule row.
 */
import { insertRow } from "../../reconcile/insertRow";
import { rowsWhere, str, type PlatformApi } from "../../reconcile/platform";
import { contentFilter } from "../../reconcile/automation/rows";
import { SCHEDULE_TRIGGER_TABLE } from "../../schemas/tables";

/** The task keys the schedule's links name, in the platform's order. */
export async function scheduleTasks(api: PlatformApi, schedule: string): Promise<string[]> {
  return (await linksOf(api, schedule)).map((l) => l.task);
}

/**
 * Makes the schedule run exactly `tasks`: creates what is missing, deletes
 * what is extra. A link whose create answer is lost is found by its task and
 * schedule before it is sent again (`budgetMs`: the create's time limit).
 */
export async function setScheduleTasks(api: PlatformApi, schedule: string, tasks: readonly string[], budgetMs: number): Promise<void> {
  const links = await linksOf(api, schedule);
  const wanted = new Set(tasks);
  for (const extra of links.filter((l) => !wanted.has(l.task))) await api.remove(SCHEDULE_TRIGGER_TABLE, extra.key);
  const present = new Set(links.map((l) => l.task));
  for (const task of tasks.filter((t) => !present.has(t))) {
    const body = { task, schedule };
    const findOurs = async () => (await api.list(SCHEDULE_TRIGGER_TABLE, { filter: contentFilter(body), fields: "$key", limit: 1 }))[0];
    await insertRow(
      api,
      { table: SCHEDULE_TRIGGER_TABLE, body, what: `the link of schedule ${schedule} to task ${task}`, findOurs, lookFirst: false },
      budgetMs,
    );
  }
}

/** Joins the other schedules' reads of the run: one GET of the links for a whole refresh. */
async function linksOf(api: PlatformApi, schedule: string): Promise<{ key: string; task: string }[]> {
  const rows = await rowsWhere(api, SCHEDULE_TRIGGER_TABLE, "schedule", schedule, "$key,task");
  return rows.map((r) => ({ key: str(r.$key), task: str(r.task) }));
}
