import { seedUsers } from "../identity/users";
import { InMemoryContext } from "../../engine/context";
import { ManualClock } from "../../engine/clock";
import { CORE_SERVICES } from "../index";
import { del, get, post, refusal } from "../../requests/testSupport";
import { automationFeature } from "./index";

const START = Date.parse("2027-01-11T07:00:00Z"); // a Monday
let clock: ManualClock;
let ctx: InMemoryContext;

beforeEach(() => {
  clock = new ManualClock(START);
  ctx = new InMemoryContext(1, clock);
  for (const service of [...CORE_SERVICES, automationFeature()]) ctx.registerService(service);
  ctx.seed();
  seedUsers(ctx, "admin-password");
});
afterEach(() => ctx.close());

const vm = (name: string) => String(post(ctx, "vms", { name }).$key);
const power = (key: string) => ctx.get("machine_status", ctx.get("vms", key)!.machine)!.status;
const task = (owner: string, action?: string) =>
  String(post(ctx, "tasks", { name: `${owner} ${action}`, owner, ...(action ? { action } : {}) }).$key);
const at = (schedule: Record<string, unknown>, ...tasks: string[]) => {
  const key = String(post(ctx, "task_schedules", { name: `s${ctx.all("task_schedules").length}`, ...schedule }).$key);
  for (const t of tasks) post(ctx, "task_schedule_triggers", { task: t, schedule: key });
  return key;
};
const advanceTo = (iso: string) => clock.advance(Date.parse(iso) - clock.now());

describe("tasks on VMs and users", () => {
  it("owner names the object (vms/<key>, users/<key>); the action must be one its type offers", () => {
    const web = vm("web");
    expect(get(ctx, "tasks", task(`vms/${web}`, "poweron"), "table,action,action_display")).toEqual({
      table: "vms",
      action: "poweron",
      action_display: "Power On",
    });
    expect(refusal(() => task(`vms/${web}`, "send")).message).toMatch(
      /action.*'send' is not a valid option for vms \(valid: poweron, poweroff, kill\)/,
    );
    expect(refusal(() => task("vms/999", "poweron")).status).toBe(404);
    expect(refusal(() => task("tenants/1", "poweron")).message).toMatch(/owner.*webhook_urls\/<key>, vms\/<key>, users\/<key>/);
    expect(get(ctx, "tasks", task("users/1"), "action").action).toBe("enable");
  });

  it("a weekly schedule powers a VM on at its start and a second one off at its stop, on the manual clock", () => {
    const web = vm("web");
    const weekdays = { monday: true, tuesday: false, wednesday: true, thursday: false, friday: false, saturday: false, sunday: false };
    at({ repeat_every: "week", start_time_of_day: 8 * 3600, ...weekdays }, task(`vms/${web}`, "poweron"));
    at({ repeat_every: "week", start_time_of_day: 10 * 3600, ...weekdays }, task(`vms/${web}`, "poweroff"));
    advanceTo("2027-01-11T07:59:59Z");
    expect(power(web)).toBe("stopped");
    advanceTo("2027-01-11T08:00:05Z");
    expect(power(web)).toBe("running");
    advanceTo("2027-01-11T10:00:10Z");
    expect(power(web)).toBe("stopped");
    advanceTo("2027-01-12T09:00:00Z"); // Tuesday: no session
    expect(power(web)).toBe("stopped");
    advanceTo("2027-01-13T08:30:00Z");
    expect(power(web)).toBe("running");
  });

  it("a refused action (power off a stopped VM) ends the run in error with the platform's reason", () => {
    const off = task(`vms/${vm("web")}`, "poweroff");
    post(ctx, "task_actions", { task: off, action: "execute" });
    expect(get(ctx, "tasks", off, "status,status_info")).toEqual({ status: "error", status_info: "cannot power off, not running" });
  });

  it("a one-time schedule disables a user: its API key answers 401 from then on", () => {
    const user = String(post(ctx, "users", { name: "student", password: "pw-pw-pw-pw", role: "readonly" }).$key);
    at(
      { repeat_every: "never", start_date: Date.parse("2027-05-14T00:00:00Z") / 1000, start_time_of_day: 17 * 3600 },
      task(`users/${user}`, "disable"),
    );
    advanceTo("2027-05-14T16:59:00Z");
    expect(ctx.get("users", user)!.enabled).toBe(true);
    advanceTo("2027-05-14T17:00:00Z");
    expect(ctx.get("users", user)!.enabled).toBe(false);
  });

  it("deleting the object deletes its tasks", () => {
    const web = vm("web");
    task(`vms/${web}`, "poweron");
    del(ctx, "vms", web);
    expect(ctx.find("tasks", () => true)).toEqual([]);
  });
});
