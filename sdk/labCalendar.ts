/**
 * A lab's calendar as platform resources: per copy's VM a Task that powers it on and one that powers it off,
 * and the lab's Schedules (provider/plan/labCalendar.ts) linking them: session starts run the power-on tasks,
 * session stops and the term's end the power-off tasks. Nothing of ours runs between sessions: the platform's
 * scheduler does it. At the term's end the VMs power off, the copies' users are disabled (no login, no key, by
 * password or API key) and their API keys expire (the key's Set Date expiry, in sdk/lab.ts).
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
import type * as resources from "./resources.generated";

type Task = resources.Task;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while the program's calendar type and the planner's agree. */
export type CalendarTypesAgree<T extends true = Same<LabCalendar, PlannedCalendar>> = T;

/** Throws the calendar's problems, each naming its field (judged at the program's time: an end in the past is refused). */
export function assertCalendar(lab: string, calendar: LabCalendar, nowMs: number): void {
  const problems = calendarProblems(calendar, nowMs);
  if (problems.length > 0) throw new pulumi.RunError(problems.map((p) => `lab '${lab}': ${p.field}: ${p.message}`).join("\n"));
}

/** The power tasks of one copy's VM, named after it (`course-01-web-on`, `-off`). `Task`: the class (sdk/lab.ts LabClasses). */
export function vmPowerTasks(
  vm: resources.VirtualMachine,
  name: string,
  parent: pulumi.Resource,
  Task: typeof resources.Task,
): Record<"poweron" | "poweroff", Task> {
  const task = (action: "poweron" | "poweroff", suffix: string) =>
    new Task(
      `${name}-${suffix}`,
      { name: `${name}-${suffix}`, vm: vm.id, action, description: `lab calendar: ${action} ${name}` },
      { parent },
    );
  return { poweron: task("poweron", "on"), poweroff: task("poweroff", "off") };
}

/** The task that disables a copy's user at the term's end (`course-01-disable`): its password and keys stop working. */
export function userDisableTask(user: resources.User, name: string, parent: pulumi.Resource, Task: typeof resources.Task): Task {
  return new Task(
    `${name}-disable`,
    { name: `${name}-disable`, user: user.id, action: "disable", description: `lab calendar: the term's end disables ${name}` },
    { parent },
  );
}

/** The tasks a lab's calendar runs: the copies' VMs' power tasks, and the users' disable tasks at the end. */
export type CalendarTasks = Record<"poweron" | "poweroff" | "disable", Task[]>;

/** The lab's schedules, each running the tasks of its action; the preview says when the class next starts, stops and ends. */
export function declareCalendar(
  lab: string,
  calendar: LabCalendar,
  tasks: CalendarTasks,
  parent: pulumi.Resource,
  nowMs: number,
  Schedule: typeof resources.Schedule,
): void {
  const runs: Record<CalendarAction, Task[]> = {
    poweron: tasks.poweron,
    poweroff: tasks.poweroff,
    end: [...tasks.poweroff, ...tasks.disable],
  };
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
