/**
 * A lab's calendar as platform resources: per copy's VM a Task that powers it on and one that powers it off,
 * and the lab's Schedules (provider/plan/labCalendar.ts) linking them: session starts run the power-on tasks,
 * session stops and the term's end the power-off tasks. Nothing of ours runs between sessions: the platform's
 * scheduler does it. The copies' API keys expire at the end (the key's Set Date expiry, in sdk/lab.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import {
  type CalendarAction,
  calendarProblems,
  compileCalendar,
  DEFAULT_TIME_ZONE,
  describeCalendarEvents,
  type LabCalendar as PlannedCalendar,
} from "../provider/plan/labCalendar";
import type { LabCalendar } from "./labCalendarArgs";
import { Schedule, Task, type VirtualMachine } from "./resources.generated";
import { ProgramError } from "./programError";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while the program's calendar type and the planner's agree. */
export type CalendarTypesAgree<T extends true = Same<LabCalendar, PlannedCalendar>> = T;

/** Throws the calendar's problems, each naming its field (judged at the program's time: an end in the past is refused). */
export function assertCalendar(lab: string, calendar: LabCalendar, nowMs: number): void {
  const problems = calendarProblems(calendar, nowMs);
  if (problems.length > 0) throw new ProgramError(problems.map((p) => `lab '${lab}': ${p.field}: ${p.message}`).join("\n"));
}

/** The power tasks of one copy's VM, named after it (`course-01-web-on`, `-off`). */
export function vmPowerTasks(vm: VirtualMachine, name: string, parent: pulumi.Resource): Record<"poweron" | "poweroff", Task> {
  const task = (action: "poweron" | "poweroff", suffix: string) =>
    new Task(
      `${name}-${suffix}`,
      { name: `${name}-${suffix}`, vm: vm.id, action, description: `lab calendar: ${action} ${name}` },
      { parent },
    );
  return { poweron: task("poweron", "on"), poweroff: task("poweroff", "off") };
}

/** The lab's schedules, each running the tasks of its action; the preview says when the class next starts, stops and ends. */
export function declareCalendar(
  lab: string,
  calendar: LabCalendar,
  tasks: Record<"poweron" | "poweroff", Task[]>,
  parent: pulumi.Resource,
  nowMs: number,
): void {
  const runs: Record<CalendarAction, Task[]> = { poweron: tasks.poweron, poweroff: tasks.poweroff, end: tasks.poweroff };
  for (const s of compileCalendar(calendar)) {
    const { id, action, ...when } = s;
    new Schedule(
      `${lab}-${id}`,
      {
        name: `${lab}-${id}`,
        description: `lab ${lab} calendar (${calendar.timeZone ?? DEFAULT_TIME_ZONE}): ${action === "end" ? "the term's end" : action}`,
        ...when,
        tasks: runs[action].map((t) => t.id),
      },
      { parent },
    );
  }
  pulumi.log.info(`vplatform: lab '${lab}' calendar: ${describeCalendarEvents(calendar, nowMs)}`, parent);
}
