// Clone trees (issue 40) under the real engine: ten VMs cloned from one source in one run are made
// through a tree (the emulator's recorder shows clones from clones, several sources at once), and
// each is the same as a clone made straight from the source: settings, drives with their content
// markers, NICs (new MACs, as a clone without preserveMacs gets). A clone whose answer is lost inside
// the tree is found again by the next `up`, with no extra VM.
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { type PlatformReader, cloneTree, clonesIn, vmShape } from "../../bench/class/copies";
import { type CountedStack, collectInto, useCountedStack } from "./countedStack";

const COPIES = 10;
const GiB = 1024 ** 3;

/** The copies the program declares: none at first (the golden image is written before any clone), then COPIES. */
let copies = 0;

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const golden = new vp.VirtualMachine("golden", { name: "golden", cpuCores: 2, ram: 1024, description: "the image" });
  const os = new vp.Drive("golden-os", { machine: golden.machineKey, name: "os", disksize: GiB, preferredTier: 3 });
  const net = new vp.Vnet("net", { name: "tree-net", network: "10.70.0.0/24" });
  const nic = new vp.Nic("golden-nic", { machine: golden.machineKey, name: "eth0", vnet: net.id });
  for (let i = 1; i <= copies; i++)
    new vp.VirtualMachine(`copy-${i}`, { name: `copy-${i}`, cloneFrom: { vm: golden.id } }, { dependsOn: [os, nic] });
};

const adminOf = (run: CountedStack) => ({
  username: run.emu.adminUser,
  password: run.emu.adminPassword,
  https: { certificateAuthority: run.emu.caCert },
});

/** Up with the golden VM alone, its drive's content written as a guest would; then the copies are declared. Its VM key. */
async function goldenImage(run: CountedStack): Promise<number> {
  copies = 0;
  expect((await run.stack.up(collectInto(run))).summary.result).toBe("succeeded");
  const [golden] = await run.api(`/v4/vms?filter=name%20eq%20'golden'&fields=$key,machine`);
  const [os] = await run.api(`/v4/machine_drives?filter=machine%20eq%20${golden.machine}&fields=$key`);
  await got(`${run.emu.url}/_emulator/drives/${os.$key}/content`, { ...adminOf(run), method: "PUT", json: { content: "golden image v1" } });
  copies = COPIES;
  return Number(golden.$key);
}

/** The platform as the shape of a VM reads it (see bench/class/copies.ts). */
const readerOf = (run: CountedStack, admin: object): PlatformReader => ({
  api: (apiPath) => run.api(apiPath),
  content: (driveKey) => got(`${run.emu.url}/_emulator/drives/${driveKey}/content`, admin).json(),
});

describe("a clone tree: ten clones of one source in one run are made from clones, each the same as a direct clone", () => {
  const run = useCountedStack("clone-tree", program, { timeScale: 0.2 });
  let golden: number;

  beforeAll(async () => {
    golden = await goldenImage(run());
    await run().record();
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
  }, 300_000);

  test("the recorder shows clones from clones, several running at once from different sources", async () => {
    // A clone runs from its POST until its source leaves `cloning` (1 s at this time scale): count sources at once.
    const tree = cloneTree(clonesIn(run().recorded()), 1000);
    expect(tree.clones).toBe(COPIES);
    expect(tree.fromClones).toBeGreaterThan(0);
    expect(tree.sourcesAtOnce).toBeGreaterThan(1);
  });

  test("each clone has what a clone made straight from the source has: settings, drives and their content, NICs", async () => {
    const admin = adminOf(run());
    const direct = await got(`${run().emu.url}/api/v4/vm_actions`, {
      ...admin,
      method: "POST",
      json: { vm: String(golden), action: "clone", params: { name: "direct" } },
    }).json();
    expect(direct).toBeDefined();
    const read = readerOf(run(), admin);
    const reference = await vmShape(read, "direct");
    expect(reference.content).toEqual([{ content: "golden image v1" }]);
    const goldenMacs = (await vmShape(read, "golden")).macs;
    const macs = new Set<string>();
    for (let i = 1; i <= COPIES; i++) {
      const copy = await vmShape(read, `copy-${i}`);
      expect({ ...copy, macs: undefined }).toEqual({ ...reference, macs: undefined });
      for (const mac of copy.macs) {
        expect(goldenMacs).not.toContain(mac); // a clone without preserveMacs gets MACs of its own
        expect(macs.has(mac)).toBe(false);
        macs.add(mac);
      }
    }
  });

  test("the next preview changes nothing", async () => {
    const preview = await run().stack.preview(collectInto(run()));
    expect(preview.changeSummary).toEqual({ same: 4 + COPIES + 1 });
  }, 300_000);
});

describe("a clone whose answer is lost inside the tree: the next up converges with no extra VM", () => {
  const run = useCountedStack("clone-tree-fault", program, { timeScale: 0.2 });

  test("the first up fails on the lost answer or takes the clone over; the next up converges; each copy once", async () => {
    const admin = adminOf(run());
    const golden = await goldenImage(run());
    await run().record();
    // The first clone is from the golden VM; the ones after it are made from clones: drop the answer of one of those.
    const fault = (where: Record<string, string>) =>
      got(`${run().emu.url}/_emulator/faults`, {
        ...admin,
        method: "POST",
        json: { method: "POST", table: "vm_actions", dropAfter: true, count: 1, where },
      });
    // The golden VM's first clone gets the next VM key: the clones made from it are inside the tree.
    const firstClone = String(golden + 1);
    await fault({ action: "clone", vm: firstClone });
    await run()
      .stack.up(collectInto(run()))
      .catch(() => undefined);
    const dropped = clonesIn(run().recorded()).filter((c) => c.from === firstClone);
    expect(dropped.length).toBeGreaterThan(0); // the fault hit a clone made from a clone
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    const vms: { name: string }[] = await run().api("/v4/vms?filter=is_snapshot%20eq%20false&fields=name");
    expect(vms.map((v) => v.name).sort()).toEqual(["golden", ...Array.from({ length: COPIES }, (_, i) => `copy-${i + 1}`)].sort());
    const preview = await run().stack.preview(collectInto(run()));
    expect(preview.changeSummary).toEqual({ same: 4 + COPIES + 1 });
  }, 600_000);
});
