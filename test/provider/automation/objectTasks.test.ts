// A task on a VM or a user (the maker's Task Engine: power on, power off, disable), made and read back by the
// provider's row operations: no drift on a fresh read, the emulator runs it, and bad objects are refused at check.
import { createRow, readRow } from "../../../provider/reconcile/automation/rows";
import { taskInputsSchema } from "../../../provider/resources/task/schema";
import { once, type Site, startSite, STARTUP_MS } from "./site";
import { task } from "../../../provider/resources/task/resource";
import { rowsOf } from "../../../provider/resources/framework/defineResource";
import type { TaskInputs } from "../../../provider/resources/task/schema";

const taskRows = rowsOf<TaskInputs>(task);

let site: Site;
let vm: string;
beforeAll(async () => {
  site = await startSite();
  vm = (await site.api.create("vms", { name: "web" })).$key;
}, STARTUP_MS);
afterAll(() => site.close());

const issues = (inputs: Record<string, unknown>) =>
  taskInputsSchema.safeParse({ name: "t", ...inputs }).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("a task on a VM", () => {
  test("reads back as declared (no drift) and powers the VM on when executed", async () => {
    const declared = taskInputsSchema.parse({ name: "web on", vm, action: "poweron" });
    const { key } = await createRow(site.api, taskRows, declared, once());
    expect((await readRow(site.api, taskRows, key, declared))?.inputs).toMatchObject({ vm, action: "poweron", name: "web on" });
    expect((await site.call("POST", "/api/v4/task_actions", { task: key, action: "execute" })).status).toBe(201);
    const status = await site.api.get("machine_status", String((await site.api.get("vms", vm, "machine"))!.machine), "status");
    expect(["starting", "running"]).toContain(status?.status);
  });

  test("a webhook task declared without an action reads back without one", async () => {
    const hook = (await site.api.create("webhook_urls", { name: "h", url: "https://127.0.0.1:9/x" })).$key;
    const declared = taskInputsSchema.parse({ name: "send", webhook: hook });
    const { key } = await createRow(site.api, taskRows, declared, once());
    const live = (await readRow(site.api, taskRows, key, declared))?.inputs;
    expect(live).not.toHaveProperty("action");
    expect(live).not.toHaveProperty("vm");
    expect(live).toMatchObject({ webhook: hook });
  });
});

describe("bad objects are refused naming the field", () => {
  test("none, two, a missing or a foreign action", () => {
    expect(issues({})).toEqual(["webhook: give exactly one of webhook, vm or user (none given)"]);
    expect(issues({ vm: 1, user: 2, action: "poweron" })).toEqual(["user: give exactly one of webhook, vm or user (vm and user given)"]);
    expect(issues({ vm: 1 })).toEqual(["action: is required for a vm task: poweron, poweroff, kill"]);
    expect(issues({ user: 1, action: "poweron" })).toEqual(["action: 'poweron' is not an action of a user task: enable, disable"]);
    expect(issues({ user: 1, action: "disable" })).toEqual([]);
  });
});

describe("changing a task's object", () => {
  test("from a webhook to a VM is one PUT of owner and action; the row reads back as the VM's task", async () => {
    const hook = (await site.api.create("webhook_urls", { name: "h2", url: "https://127.0.0.1:9/x" })).$key;
    const { key } = await createRow(site.api, taskRows, taskInputsSchema.parse({ name: "switch", webhook: hook }), once());
    const moved = taskInputsSchema.parse({ name: "switch", vm, action: "poweroff" });
    expect((await site.call("PUT", `/api/v4/tasks/${key}`, taskRows.toApiBody(moved, "update"))).status).toBe(200);
    expect((await readRow(site.api, taskRows, key, moved))?.inputs).toMatchObject({ vm, action: "poweroff" });
  });
});
