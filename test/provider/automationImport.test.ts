// Import of webhooks, tasks, event triggers and schedules (a read with nothing declared, as
// `pulumi import` and `.get()` do): every field the platform answers is declared, so the next
// preview of the same declaration shows no change; a webhook's authorization is write-only, so
// the import leaves it undeclared, not defaulted (its warning comes from importWarnings, schemas/unreadable.ts).
import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
}, 60_000);
afterAll(() => lab.close());

type Token = "Webhook" | "Task" | "EventTrigger" | "Schedule";

/** Reads the row as an import does, then diffs the program that declares what the import wrote against it. */
async function imported(token: Token, id: string) {
  const p = providers[token]();
  const read = await p.read(id, {});
  const checked = await p.check({}, read.inputs);
  return { read, checked, diff: await p.diff(id, read.props, checked.inputs) };
}

describe("an imported automation row declares what the platform answers, and the next preview shows no change", () => {
  let hook: string;
  let task: string;
  beforeAll(async () => {
    hook = (
      await checkedCreate(providers.Webhook(), {
        name: "imported-hook",
        url: "https://127.0.0.1:9/",
        authorization: { type: "bearer", token: "t0ken-imp" },
        headers: [{ name: "X-Team", value: "lab" }],
        timeout: 10,
      })
    ).id;
    task = (await checkedCreate(providers.Task(), { name: "imported-task", webhook: hook, message: "${NAME} at ${DATE}" })).id;
  });

  test("a webhook: its headers, timeout and URL are declared; its write-only authorization is not, and declaring it is one in-place update", async () => {
    await lab.resetRequests();
    const p = providers.Webhook();
    const read = await p.read(hook, {});
    expect(read.inputs).toMatchObject({ name: "imported-hook", headers: [{ name: "X-Team", value: "lab" }], timeout: 10 });
    expect(read.inputs).not.toHaveProperty("authorization");
    expect(read.props).not.toHaveProperty("authorization");
    expect(mutating((await lab.requests()).entries)).toEqual([]);
    // The import's warning asks for the credential: the program declares it, and the update sends it.
    const declared = (await p.check({}, { ...read.inputs, authorization: { type: "bearer", token: "t0ken-imp" } })).inputs;
    expect(await p.diff(hook, read.props, declared)).toMatchObject({ changes: true, replaces: [] });
    const outs = (await p.update(hook, read.props, declared)).outs;
    expect(await p.diff(hook, outs, declared)).toMatchObject({ changes: false });
    expect((await lab.api("GET", `webhook_urls/${hook}?fields=authorization_type`)).authorization_type).toBe("bearer");
  });

  test("a task: its webhook (the owner's key) and its message are declared", async () => {
    const { read, diff } = await imported("Task", task);
    expect(read.inputs).toMatchObject({ name: "imported-task", webhook: hook, message: "${NAME} at ${DATE}" });
    expect(diff.changes).toBe(false);
  });

  test("an event trigger: its task, type, event and object are declared", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "imported-watched", powerState: "stopped" });
    const trigger = await checkedCreate(providers.EventTrigger(), { task, type: "vms", event: "poweroff", object: vm.id });
    const { read, diff } = await imported("EventTrigger", trigger.id);
    expect(read.inputs).toMatchObject({ task, type: "vms", event: "poweroff", object: vm.id });
    expect(diff.changes).toBe(false);
  });

  test("a schedule: its window, weekdays and linked tasks are declared", async () => {
    const schedule = await checkedCreate(providers.Schedule(), {
      name: "imported-nightly",
      repeatEvery: "day",
      start: "2031-01-01",
      startTimeOfDay: "02:30",
      days: ["monday", "friday"],
      tasks: [task],
    });
    const { read, diff } = await imported("Schedule", schedule.id);
    expect(read.inputs).toMatchObject({ name: "imported-nightly", days: ["monday", "friday"], startTimeOfDay: "02:30", tasks: [task] });
    expect(diff.changes).toBe(false);
  });
});
