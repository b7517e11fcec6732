/**
 * Vnet powerState against the emulator: a network passes traffic only while it runs. Created running with one
 * poweron (params.apply) and shared status polls; read back on refresh; pending changes of a running network
 * applied; powered off before its DELETE; a 503 on the poweron ends in one effective action.
 */
import { diffVnet } from "../../provider/resources/vnet/resource";
import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

jest.setTimeout(30_000);
let lab: Lab;
beforeAll(async () => {
  lab = await startLab({ "vplatform:requestTimeoutMs": "1000" });
});
afterEach(() => lab.hook("DELETE", "/_emulator/faults"));
afterAll(() => lab.close());

let nets = 0;
const declare = (more: Record<string, unknown> = {}) => {
  nets++;
  return { name: `pw-net-${nets}`, network: `10.70.${nets}.0/24`, ...more };
};
const live = async (id: string) =>
  lab.api("GET", `vnets/${id}?fields=machine%23status%23status+as+status,need_fw_apply,need_dns_apply,need_restart`);
const requests = async () => (await lab.requests()).entries;
const count = (entries: { method: string; table: string; count: number }[], method: string, table: string) =>
  entries.filter((e) => e.method === method && e.table === table).reduce((n, e) => n + e.count, 0);
const actionsSent = async () => count(await requests(), "POST", "vnet_actions");
async function untilStatus(id: string, status: string) {
  for (let i = 0; i < 200 && (await live(id)).status !== status; i++) await new Promise((r) => setTimeout(r, 20));
  expect((await live(id)).status).toBe(status);
}
/** As the engine does after a refresh: the read's state and inputs, then check, diff and update. */
async function refreshAndUp(id: string, recorded: Record<string, any>, declared: Record<string, unknown>) {
  const p = providers.Vnet();
  const read = await p.read(id, recorded);
  const news = (await p.check(read.inputs, declared)).inputs;
  const diff = await p.diff(id, read.props, news);
  const outs = diff.changes ? (await p.update(id, read.props, news)).outs : undefined;
  return { read, diff, outs };
}

describe("created with powerState running: one poweron with params.apply, then status polls only", () => {
  test("the network runs when the create returns; the status output says so", async () => {
    await lab.resetRequests();
    const v = await checkedCreate(providers.Vnet(), declare({ powerState: "running" }));
    expect(v.outs).toMatchObject({ powerState: "running", status: "running" });
    expect((await live(v.id)).status).toBe("running");
    const sent = await requests();
    expect(sent.filter((e) => e.method !== "GET")).toEqual([
      expect.objectContaining({ method: "POST", table: "vnets", count: 1 }),
      expect.objectContaining({ method: "POST", table: "vnet_actions", count: 1 }),
    ]);
    // The only reads are the shared poller's (one filtered GET of vnets per tick).
    expect(sent.filter((e) => e.method === "GET").map((e) => e.table)).toEqual(["vnets"]);
  });

  test("vnets started together share the status polls: one filtered GET of vnets per tick serves them all", async () => {
    await lab.resetRequests();
    const many = 4;
    await Promise.all(Array.from({ length: many }, () => checkedCreate(providers.Vnet(), declare({ powerState: "running" }))));
    const sent = await requests();
    expect(count(sent, "POST", "vnet_actions")).toBe(many);
    const polls = count(sent, "GET", "vnets"); // the shared poller's reads only (as for one create, above)
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThan(many); // a poll per vnet would be at least `many`
  });

  test("without powerState the vnet is left stopped and the create sends its POST alone, as before", async () => {
    await lab.resetRequests();
    const v = await checkedCreate(providers.Vnet(), declare());
    expect(v.outs.status).toBe("stopped");
    expect(v.outs).not.toHaveProperty("powerState");
    expect(mutating(await requests())).toEqual([expect.objectContaining({ method: "POST", table: "vnets", count: 1 })]);
    expect((await live(v.id)).status).toBe("stopped");
  });
});

describe("an action meeting a fault (a 503 on the poweron, a dropped answer to the restart) ends in one effective action", () => {
  test("the 503 was not processed: the status shows it not taken, the poweron is sent again once, the network runs", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare());
    await lab.hook("POST", "/_emulator/faults", {
      method: "POST",
      table: "vnet_actions",
      where: { vnet: v.id, action: "poweron" },
      count: 1,
      status: 503,
    });
    await lab.resetRequests();
    const news = (await p.check(v.inputs, { ...v.inputs, powerState: "running" })).inputs;
    const { outs } = await p.update(v.id, v.outs, news);
    expect(outs.status).toBe("running");
    expect((await live(v.id)).status).toBe("running");
    expect(await actionsSent()).toBe(2);
  });

  test("a restart whose answer is dropped (processed): the cleared need_restart shows it taken, it is not sent again", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    await lab.hook("POST", "/_emulator/faults", {
      method: "POST",
      table: "vnet_actions",
      where: { vnet: v.id, action: "reset" },
      count: 1,
      dropAfter: true,
    });
    await lab.resetRequests();
    const news = (await p.check(v.inputs, { ...v.inputs, mtu: 9000 })).inputs;
    await p.update(v.id, v.outs, news);
    expect(await live(v.id)).toMatchObject({ status: "running", need_restart: false });
    expect(await actionsSent()).toBe(1);
  });
});

describe("refresh reads the power back: drift when it differs, and the next up converges", () => {
  test("declared running, powered off outside: refresh says stopped, the update powers it on again", async () => {
    const v = await checkedCreate(providers.Vnet(), declare({ powerState: "running" }));
    await lab.api("POST", "vnet_actions", { vnet: v.id, action: "killpower" });
    await untilStatus(v.id, "stopped");
    const { read, diff, outs } = await refreshAndUp(v.id, v.outs, v.inputs);
    expect(read.inputs.powerState).toBe("stopped");
    expect(read.props.status).toBe("stopped");
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(outs?.status).toBe("running");
    expect((await live(v.id)).status).toBe("running");
    expect((await refreshAndUp(v.id, outs!, v.inputs)).diff.changes).toBe(false);
  });

  test("power not declared: a vnet powered on outside is no drift (status is an output only)", async () => {
    const v = await checkedCreate(providers.Vnet(), declare());
    await lab.api("POST", "vnet_actions", { vnet: v.id, action: "poweron" });
    await untilStatus(v.id, "running");
    const { read, diff } = await refreshAndUp(v.id, v.outs, v.inputs);
    expect(read.props.status).toBe("running");
    expect(read.inputs).not.toHaveProperty("powerState");
    expect(diff.changes).toBe(false);
  });

  test("declared stopped on a running network: the update powers it off", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    const news = (await p.check(v.inputs, { ...v.inputs, powerState: "stopped" })).inputs;
    expect((await p.update(v.id, v.outs, news)).outs.status).toBe("stopped");
    expect((await live(v.id)).status).toBe("stopped");
  });
});

describe("changes a running network holds back are applied by the update", () => {
  test("a gateway change (need_fw_apply): the rules are applied (refresh), the network keeps running", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    const news = (await p.check(v.inputs, { ...v.inputs, gateway: v.inputs.network.replace(".0/24", ".1") })).inputs;
    await lab.resetRequests();
    await p.update(v.id, v.outs, news);
    expect(await live(v.id)).toMatchObject({ status: "running", need_fw_apply: false });
    expect(await actionsSent()).toBe(1);
  });

  test("an MTU change (need_restart): the preview warns of the restart; the update restarts it (reset with apply)", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    const news = (await p.check(v.inputs, { ...v.inputs, mtu: 9000 })).inputs;
    expect(diffVnet(v.outs, news).warnings).toEqual([expect.stringMatching(/mtu .*9000 RESTARTS the running network/)]);
    await p.update(v.id, v.outs, news);
    expect(await live(v.id)).toMatchObject({ status: "running", need_restart: false });
  });

  test("declared running and found stopped with changes pending: one poweron with params.apply applies them", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    await lab.api("PUT", `vnets/${v.id}`, { dnslist: "1.1.1.1" }); // held back: need_dns_apply
    await lab.api("POST", "vnet_actions", { vnet: v.id, action: "killpower" });
    await lab.resetRequests();
    const { outs } = await refreshAndUp(v.id, v.outs, v.inputs);
    expect(outs?.status).toBe("running");
    expect(await live(v.id)).toMatchObject({ status: "running", need_dns_apply: false });
    expect(await actionsSent()).toBe(1);
  });
});

describe("deleting a running network powers it off first (the platform deletes only a stopped one)", () => {
  test("recorded running: poweroff, then one DELETE", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare({ powerState: "running" }));
    await lab.resetRequests();
    await p.delete(v.id, v.outs);
    expect((await p.read(v.id, v.outs)).id).toBe("");
    const sent = await requests();
    expect([count(sent, "POST", "vnet_actions"), count(sent, "DELETE", "vnets")]).toEqual([1, 1]);
  });

  test("recorded stopped but started outside: the refused DELETE (409) powers it off, the next DELETE succeeds", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, declare());
    await lab.api("POST", "vnet_actions", { vnet: v.id, action: "poweron" });
    await untilStatus(v.id, "running");
    await p.delete(v.id, v.outs);
    expect((await p.read(v.id, v.outs)).id).toBe("");
  });
});

describe("check names the field", () => {
  test("a power state other than running or stopped", async () => {
    const r = await providers.Vnet().check({}, declare({ powerState: "on" }));
    expect(r.failures).toEqual([expect.objectContaining({ property: "powerState", reason: expect.stringMatching(/running|stopped/) })]);
  });
});
