import { scheduleTasks, setScheduleTasks } from "./platform";
import { errorText } from "../../reconcile/platform";
import { type ScheduleInputs, scheduleInputsSchema, scheduleShape } from "./schema";
import { diffRow } from "../framework/automationRow";
import { PartialCreateError } from "../framework/defineProvider";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { SCHEDULE_TABLE, TASK_TABLE } from "../../schemas/tables";

export const schedule = defineResource<ScheduleInputs, ScheduleInputs>({
  token: "Schedule",
  table: SCHEDULE_TABLE,
  description:
    "When tasks run (every minute … year, or once), from a start to an end, on which weekdays; tasks are the Task ids it runs. Every change is made in place.",
  schema: scheduleInputsSchema,
  shape: scheduleShape,
  names: "unique",
  marker: "description",
  nameCheck: false,
  hooks: ({ rows, shared: row }) => ({
    async create(api, inputs) {
      const created = await row.create(api, inputs);
      try {
        await setScheduleTasks(api, created.id, inputs.tasks, resolveTimeouts(inputs.timeouts).create * 1000);
      } catch (err) {
        // The schedule exists: record it, so the next `up` links its tasks instead of making a second schedule.
        throw new PartialCreateError(
          `vplatform: schedule '${inputs.name}' was created (key ${created.id}) but linking its tasks failed: ${errorText(err)}`,
          created.id,
          { ...inputs, tasks: [] },
          "the schedule is recorded without its tasks; the next `pulumi up` links them",
        );
      }
      return created;
    },

    async read(api, id, olds) {
      const live = await row.read(api, id, olds);
      if (!live) return undefined;
      // Declared (or imported: nothing declared yet): the links are read, batched with the other schedules' of the run.
      if (olds.tasks === undefined && Object.keys(olds).length > 0) return live;
      const linked = await scheduleTasks(api, id);
      // The links have no order: the declared order stands while they are the same tasks.
      const declared = olds.tasks ?? [];
      const tasks = linked.length === declared.length && linked.every((t) => declared.includes(t)) ? declared : linked;
      return { outs: { ...live.outs, tasks }, inputs: { ...live.inputs, tasks } };
    },

    async update(api, id, olds, news) {
      await row.update(api, id, olds, news);
      if (diffRow(scheduleShape, rows, olds, news).updates.includes(TASK_TABLE) && news.tasks !== undefined)
        await setScheduleTasks(api, id, news.tasks, resolveTimeouts(news.timeouts).update * 1000);
      return news;
    },
  }),
});
