// cloneFrom: { snapshot } (issue 40): a term's image pinned while the golden VM is edited. The clone
// is made from the snapshot VM (vm_actions clone of it, as the maker's clients restore a snapshot to a
// new VM), so it has the VM as it was when the snapshot was taken; refresh reads it like any VM and sees
// drift; a key that is not a snapshot's is refused, naming what to write instead. A lab's VMs (vp.Lab, and an
// environment file's lab, which names the snapshot by its key) clone it the same way, through one tree.
import * as path from "node:path";
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { findRepoRoot } from "../../env/local-stack";
import { type CountedStack, collectInto, useCountedStack } from "./countedStack";

const GiB = 1024 ** 3;
/** What the program declares besides the golden VM and its snapshot: nothing at first, then the clones. */
let clones: { name: string; cloneFrom: (ids: { golden: unknown; snapshot: unknown }) => unknown }[] = [];

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const golden = new vp.VirtualMachine("golden", { name: "golden", cpuCores: 1, ram: 1024 });
  const os = new vp.Drive("golden-os", { machine: golden.machineKey, name: "os", disksize: GiB, preferredTier: 3 });
  const term = new vp.VmSnapshot("term", { vm: golden.id, name: "term-1" }, { dependsOn: [os] });
  // cpuCores declared (as the snapshot has it): a declared field is what refresh compares.
  for (const c of clones)
    new vp.VirtualMachine(c.name, { name: c.name, cpuCores: 1, cloneFrom: c.cloneFrom({ golden: golden.id, snapshot: term.id }) });
};

const adminOf = (run: CountedStack) => ({
  username: run.emu.adminUser,
  password: run.emu.adminPassword,
  https: { certificateAuthority: run.emu.caCert },
});
const vmNamed = async (run: CountedStack, name: string) =>
  (await run.api(`/v4/vms?filter=name%20eq%20'${name}'%20and%20is_snapshot%20eq%20false&fields=$key,machine,ram,created_from`))[0];

describe("cloneFrom a snapshot: the image as it was when the snapshot was taken", () => {
  const run = useCountedStack("clone-snapshot", program, { timeScale: 0.01 });

  beforeAll(async () => {
    clones = [];
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    // The golden VM is edited after the snapshot: more RAM, new content on its drive.
    const golden = await vmNamed(run(), "golden");
    await run().patch(`/v4/vms/${golden.$key}`, { ram: 2048 });
    const [os] = await run().api(`/v4/machine_drives?filter=machine%20eq%20${golden.machine}&fields=$key`);
    await got(`${run().emu.url}/_emulator/drives/${os.$key}/content`, { ...adminOf(run()), method: "PUT", json: { content: "edited" } });
  }, 300_000);

  test("create: the clone has the snapshot's settings and drive, not the golden VM's of now", async () => {
    clones = [{ name: "student", cloneFrom: ({ snapshot }) => ({ snapshot }) }];
    await run().record();
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    const student = await vmNamed(run(), "student");
    expect(student).toMatchObject({ ram: 1024, created_from: "clone" });
    const [drive] = await run().api(`/v4/machine_drives?filter=machine%20eq%20${student.machine}&fields=$key,name`);
    expect(drive.name).toBe("os");
    const content = await got(`${run().emu.url}/_emulator/drives/${drive.$key}/content`, adminOf(run())).json();
    expect(content).toEqual({ content: "" }); // the drive as the snapshot holds it, not "edited"
    const [snapshotVm] = await run().api("/v4/vms?filter=is_snapshot%20eq%20true&fields=$key");
    const clonesSent = run()
      .recorded()
      .filter((r) => r.method === "POST" && (r.body as { action?: string })?.action === "clone");
    expect(clonesSent.map((r) => String((r.body as { vm: unknown }).vm))).toEqual([String(snapshotVm.$key)]);
  }, 300_000);

  test("refresh: a clone of a snapshot shows no change; changed outside the stack, its drift shows", async () => {
    // The golden VM's edit is undone (its drift is not this test's); the clone is what refresh looks at.
    await run().patch(`/v4/vms/${(await vmNamed(run(), "golden")).$key}`, { ram: 1024 });
    const quiet = await run().stack.refresh(collectInto(run()));
    expect(quiet.summary.resourceChanges?.update ?? 0).toBe(0);
    expect((await run().stack.preview(collectInto(run()))).changeSummary).toEqual({ same: 5 });
    const student = await vmNamed(run(), "student");
    await run().patch(`/v4/vms/${student.$key}`, { cpu_cores: 4 });
    clones = [{ name: "student", cloneFrom: ({ snapshot }) => ({ snapshot }) }];
    const drifted = await run().stack.refresh(collectInto(run()));
    expect(drifted.summary.resourceChanges?.update).toBe(1);
  }, 300_000);

  test("bad input: a VM's key given as the snapshot is refused, naming the VM and what to write", async () => {
    clones = [
      { name: "student", cloneFrom: ({ snapshot }) => ({ snapshot }) },
      { name: "wrong", cloneFrom: ({ golden }) => ({ snapshot: golden }) },
    ];
    const failed = await run()
      .stack.up(collectInto(run()))
      .then(() => "succeeded")
      .catch((err: Error) => err.message);
    expect(failed).toMatch(/cloneFrom\.snapshot: '\d+' is the key of VM 'golden', not of a snapshot; write cloneFrom: \{ vm: "\d+" \}/);
    expect(await vmNamed(run(), "wrong")).toBeUndefined();
  }, 300_000);

  test("bad input: both sources, or none, are refused before anything is sent", async () => {
    clones = [{ name: "both", cloneFrom: ({ golden, snapshot }) => ({ vm: golden, snapshot }) }];
    const failed = await run()
      .stack.preview(collectInto(run()))
      .then(() => "succeeded")
      .catch((err: Error) => err.message);
    expect(failed).toContain("cloneFrom.snapshot: give vm or snapshot, not both: a clone has one source");
    expect(await vmNamed(run(), "both")).toBeUndefined();
  }, 300_000);
});

/** The second program's labs: none at first; then the term's snapshot key, which the file's lab names. */
let pinned: { term?: string; wrong?: boolean } = {};

/** The golden VM and its term snapshot; then a TypeScript lab and an environment file's lab, each cloning the snapshot. */
const labsProgram: PulumiFn = async () => {
  const vp = require("vplatform");
  // The environment runner as a user's install loads it (see bench/lab.ts).
  const { buildEnvironment, loadEnvironment } = require(path.join(findRepoRoot(), "node_modules", "vplatform", "dist", "env"));
  const golden = new vp.VirtualMachine("golden", { name: "golden", cpuCores: 1, ram: 1024 });
  const os = new vp.Drive("golden-os", { machine: golden.machineKey, name: "os", disksize: GiB, preferredTier: 3 });
  const term = new vp.VmSnapshot("term", { vm: golden.id, name: "term-1" }, { dependsOn: [os] });
  if (pinned.term === undefined) return;
  new vp.Lab("ts", { copies: 2, pool: "10.71.0.0/16", vms: [{ name: "web", cpuCores: 1, cloneFrom: { snapshot: term } }] });
  if (pinned.wrong) new vp.Lab("bad", { copies: 1, pool: "10.73.0.0/16", vms: [{ name: "web", cloneFrom: { snapshot: golden } }] });
  const file = `labs:\n  - name: yml\n    copies: 2\n    pool: 10.72.0.0/16\n    vms:\n      - { name: web, cpuCores: 1, cloneFrom: { snapshot: "${pinned.term}" } }\n`;
  buildEnvironment(loadEnvironment("class.yaml", file));
};

describe("a lab pinned to a term's snapshot, in TypeScript (vp.Lab) and in an environment file", () => {
  const run = useCountedStack("clone-snapshot-labs", labsProgram, { timeScale: 0.01 });
  const copies = ["ts-01-web", "ts-02-web", "yml-01-web", "yml-02-web"];

  beforeAll(async () => {
    pinned = {};
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    const golden = await vmNamed(run(), "golden");
    await run().patch(`/v4/vms/${golden.$key}`, { ram: 2048 });
    const [os] = await run().api(`/v4/machine_drives?filter=machine%20eq%20${golden.machine}&fields=$key`);
    await got(`${run().emu.url}/_emulator/drives/${os.$key}/content`, { ...adminOf(run()), method: "PUT", json: { content: "edited" } });
    const [snapshot] = await run().api("/v4/vms?filter=is_snapshot%20eq%20true&fields=$key");
    pinned = { term: String(snapshot.$key) };
  }, 300_000);

  test("create: every copy's VM of both labs is the snapshot's image, made from it or from a clone of it, never from the edited VM", async () => {
    await run().record();
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    const made = new Set([pinned.term]);
    for (const name of copies) {
      const vm = await vmNamed(run(), name);
      expect(vm).toMatchObject({ ram: 1024, created_from: "clone" });
      made.add(String(vm.$key));
      const [drive] = await run().api(`/v4/machine_drives?filter=machine%20eq%20${vm.machine}&fields=$key`);
      expect(await got(`${run().emu.url}/_emulator/drives/${drive.$key}/content`, adminOf(run())).json()).toEqual({ content: "" });
    }
    const sources = run()
      .recorded()
      .filter((r) => r.method === "POST" && (r.body as { action?: string })?.action === "clone")
      .map((r) => String((r.body as { vm: unknown }).vm));
    expect(sources).toHaveLength(4);
    expect(sources).toContain(pinned.term);
    for (const from of sources) expect(made).toContain(from);
  }, 300_000);

  test("refresh shows no change of the copies' VMs and the next preview none", async () => {
    // The golden VM's edit is undone (its drift is not this test's): the copies are what refresh looks at.
    await run().patch(`/v4/vms/${(await vmNamed(run(), "golden")).$key}`, { ram: 1024 });
    const refreshed = await run().stack.refresh(collectInto(run()));
    expect(refreshed.summary.resourceChanges?.update ?? 0).toBe(0);
    const preview = await run().stack.preview(collectInto(run()));
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  }, 300_000);

  test("bad input: a lab given the golden VM as its snapshot is refused, naming the VM and what to write; no VM of it is made", async () => {
    pinned = { ...pinned, wrong: true };
    const failed = await run()
      .stack.up(collectInto(run()))
      .then(() => "succeeded")
      .catch((err: Error) => err.message);
    expect(failed).toMatch(/cloneFrom\.snapshot: '\d+' is the key of VM 'golden', not of a snapshot; write cloneFrom: \{ vm: "\d+" \}/);
    expect(await vmNamed(run(), "bad-01-web")).toBeUndefined();
    for (const name of copies) expect(await vmNamed(run(), name)).toMatchObject({ ram: 1024 });
  }, 300_000);
});
