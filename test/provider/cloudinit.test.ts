import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

const vmProvider = () => providers.VirtualMachine();
const userData = { name: "/user-data", contents: "#cloud-config\nhostname: a\n" };
const metaData = { name: "/meta-data", contents: "instance-id: a\n" };

async function liveFiles(vmKey: string) {
  const rows = await lab.api(
    "GET",
    `cloudinit_files?filter=${encodeURIComponent(`owner eq 'vms/${vmKey}'`)}&fields=name,contents&sort=name`,
  );
  return rows.map((r: { name: string; contents: string }) => ({ name: r.name, contents: r.contents }));
}

describe("cloud-init files are declared state, not just a create-time seed", () => {
  test("created with the VM; a refresh reads them back without a diff", async () => {
    const vm = await checkedCreate(vmProvider(), { name: "ci-1", cloudinitDatasource: "nocloud", cloudinitFiles: [userData, metaData] });
    expect(await liveFiles(vm.id)).toEqual([metaData, userData]);
    const read = await vmProvider().read(vm.id, vm.outs);
    expect(read.inputs.cloudinitFiles).toEqual([userData, metaData]); // declared order kept
    expect((await vmProvider().diff(vm.id, read.props, vm.inputs)).changes).toBe(false);
  });

  test("changed contents, a new file and a dropped file are applied in place", async () => {
    const vm = await checkedCreate(vmProvider(), { name: "ci-2", cloudinitFiles: [userData, metaData] });
    const changed = { ...userData, contents: "#cloud-config\nhostname: b\n" };
    const vendor = { name: "/vendor-data", contents: "" };
    const news = (await vmProvider().check(vm.inputs, { ...vm.inputs, cloudinitFiles: [changed, vendor] })).inputs;
    const diff = await vmProvider().diff(vm.id, vm.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await vmProvider().update(vm.id, vm.outs, news);
    expect(await liveFiles(vm.id)).toEqual([changed, vendor]);
  });

  test("a file edited outside Pulumi is drift: refresh shows it and the next update restores the declaration", async () => {
    const vm = await checkedCreate(vmProvider(), { name: "ci-3", cloudinitFiles: [userData] });
    const [row] = await lab.api("GET", `cloudinit_files?filter=${encodeURIComponent(`owner eq 'vms/${vm.id}'`)}&fields=$key`);
    await lab.api("PUT", `cloudinit_files/${row.$key}`, { contents: "tampered" });
    const read = await vmProvider().read(vm.id, vm.outs);
    expect(read.inputs.cloudinitFiles).toEqual([{ ...userData, contents: "tampered" }]);
    expect((await vmProvider().diff(vm.id, read.props, vm.inputs)).changes).toBe(true);
    await vmProvider().update(vm.id, read.props, vm.inputs);
    expect(await liveFiles(vm.id)).toEqual([userData]);
  });

  test("undeclared files cost no request on refresh and are left alone", async () => {
    const vm = await checkedCreate(vmProvider(), { name: "ci-4" });
    await lab.resetRequests();
    await vmProvider().read(vm.id, vm.outs);
    expect((await lab.requests()).entries.filter((e) => e.table === "cloudinit_files")).toEqual([]);
  });
});
