import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

describe("Vnet", () => {
  test("create, read without drift, update in place, delete, read as gone", async () => {
    const p = providers.Vnet();
    const v = await checkedCreate(p, {
      name: "lab",
      network: "10.20.0.0/24",
      dhcpEnabled: true,
      dhcpStart: "10.20.0.100",
      dhcpStop: "10.20.0.200",
    });
    expect(v.outs).toEqual({ ...v.inputs, status: "stopped" }); // a new vnet is stopped; its power is not managed
    const read = await p.read(v.id, v.outs);
    expect(read.inputs).toEqual(v.inputs);
    const news = (await p.check(v.inputs, { ...v.inputs, dhcpStop: "10.20.0.250" })).inputs;
    expect(await p.diff(v.id, v.outs, news)).toMatchObject({ changes: true, replaces: [] });
    await p.update(v.id, v.outs, news);
    expect((await lab.api("GET", `vnets/${v.id}?fields=dhcp_stop`)).dhcp_stop).toBe("10.20.0.250");
    await p.delete(v.id, news);
    expect((await p.read(v.id, news)).id).toBe("");
  });

  test("check names the failing field", async () => {
    const r = await providers.Vnet().check({}, { name: "bad", network: "not-a-cidr" });
    expect(r.failures?.map((f: { property: string }) => f.property)).toContain("network");
  });
});
