// A class's lab from one environment file under the real engine: copies isolated from each other (their
// NICs on their own vnets, disjoint networks, each key its copy's user's), bad input refused at preview with no
// mutating request, destroy leaving nothing, and (full form) grown by one copy and shrunk back touching only that copy.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import got from "got";
import { buildEnvironment } from "../../env/build-environment";
import { loadEnvironment } from "../../env/load-environment";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { networksOverlap } from "../../provider/plan/lab";
import { collectInto, openCountedStack, useCountedStack } from "./countedStack";
import { FULL_FORM } from "../fullForm";
import { e2eWorkDir } from "./harness";

/** The class file with `copies` copies (and, for the refusals, another pool). */
const classFile = (copies: number, pool = "10.100.0.0/16") => `
vms:
  - name: golden
    drives: [{ name: os, media: disk, disksize: 1GiB }]
labs:
  - name: class
    copies: ${copies}
    pool: ${pool}
    vms:
      - name: web
        cloneFrom: { vm: golden }
        nics: [{ name: eth0 }]
        powerState: running
      - name: db
        drives: [{ name: data, media: disk, disksize: 1GiB }]
        nics: [{ name: eth0 }]
    user: {}
    apiKey: { expires: never }
    resetSnapshot: start
`;

let file = classFile(2);
const root = findRepoRoot();
const run = useCountedStack("labs", () => Promise.resolve(buildEnvironment(loadEnvironment("class.yaml", file))), { timeScale: 0.01 });

/** The key Pulumi marks a secret value with in state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

let workDir: string | undefined;
const work = () => (workDir ??= e2eWorkDir("labs-refused-"));
afterAll(() => {
  for (const f of fs.readdirSync(root)) if (/^Pulumi\.e2e-labs-.*\.yaml$/.test(f)) fs.rmSync(path.join(root, f));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The URNs in the stack's state. */
async function urns(stack: Stack): Promise<Set<string>> {
  const state = await stack.exportStack();
  return new Set(((state.deployment.resources ?? []) as { urn: string }[]).map((r) => r.urn));
}

const mutating = async () => (await run().counts()).entries.filter((e) => e.method !== "GET").reduce((n, e) => n + e.count, 0);

interface CopyOut {
  number: number;
  name: string;
  vnet: { id: string; name: string; network: string };
  user: { id: string; name: string };
  apiKey: { id: string; secret: string };
  vms: Record<string, { id: string; machineKey: string; name: string; snapshot: string }>;
}

describe("a class lab from an environment file", () => {
  let copies: Record<string, CopyOut>;

  test("up: two copies, each on its own network, its key authenticating as its user", async () => {
    const up = await run().stack.up(collectInto(run()));
    expect(up.summary.result).toBe("succeeded");
    copies = up.outputs.labs.value.class.copies;
    expect(Object.keys(copies)).toEqual(["01", "02"]);
    expect(Object.values(copies).map((c) => [c.name, c.vnet.network, c.vms.web.name, c.vms.db.name])).toEqual([
      ["class-01", "10.100.0.0/24", "class-01-web", "class-01-db"],
      ["class-02", "10.100.1.0/24", "class-02-web", "class-02-db"],
    ]);
    expect(networksOverlap(copies["01"].vnet.network, copies["02"].vnet.network)).toBe(false);
    // Each key's secret is a secret in the state's outputs (shown as [secret]), the rest of the labs output plain.
    const state = await run().stack.exportStack();
    const root = (state.deployment.resources as { type: string; outputs: any }[]).find((r) => r.type === "pulumi:pulumi:Stack")!;
    // (exportStack shows secrets: the marker stays, with the plaintext in place of the ciphertext.)
    expect(Object.values(root.outputs.labs.class.copies).map((c: any) => [SECRET_SIG in c.apiKey.secret, typeof c.name])).toEqual([
      [true, "string"],
      [true, "string"],
    ]);
    expect(up.outputs.labs.secret).toBe(false);
    // As the contract reads them: a declared power state, none where the file declares none.
    expect(copies["01"].vms.web).toMatchObject({ powerState: "running" });
    expect("powerState" in copies["01"].vms.db).toBe(false);
    for (const copy of Object.values(copies)) {
      // Every NIC of the copy's VMs (a clone's own included) is on the copy's vnet.
      for (const vm of Object.values(copy.vms)) {
        const nics = await run().api(`/v4/machine_nics?filter=machine%20eq%20${vm.machineKey}&fields=vnet`);
        expect(nics.map((n: { vnet: unknown }) => String(n.vnet))).toEqual([copy.vnet.id]);
      }
      expect(await run().api(`/v4/vnets/${copy.vnet.id}?fields=name,network`)).toEqual({ name: copy.name, network: copy.vnet.network });
      // Each VM's reset snapshot (a snapshot is a VM row of its own), named as the file says.
      for (const vm of Object.values(copy.vms)) {
        const snapshot = await run().api(`/v4/vms/${vm.snapshot}?fields=name,is_snapshot,parent_vm`);
        expect({ ...snapshot, parent_vm: String(snapshot.parent_vm) }).toEqual({ name: "start", is_snapshot: true, parent_vm: vm.id });
      }
      // The key authenticates, and it is the copy's user's.
      const status = await got(`${run().emu.url}/api/v4/system`, {
        headers: { authorization: `Bearer ${copy.apiKey.secret}` },
        https: { certificateAuthority: run().emu.caCert },
        throwHttpErrors: false,
      });
      expect(status.statusCode).toBe(200);
      const key = await run().api(`/v4/user_api_keys/${copy.apiKey.id}?fields=user,lastlogin_stamp`);
      expect(String(key.user)).toBe(copy.user.id);
      expect(key.lastlogin_stamp).toBeGreaterThan(0);
      // No role: what it may do is its copy's grants (test/e2e/studentKeys.test.ts tries them all).
      expect(await run().api(`/v4/users/${copy.user.id}?fields=name,role`)).toEqual({ name: copy.name, role: "none" });
    }
    const web = await run().api(`/v4/vms/${copies["02"].vms.web.id}?fields=machine%23status%23status%20as%20status`);
    expect(web).toEqual({ status: "running" });
  }, 600_000);

  test("bad input is refused at preview, at the file's line, with no mutating request", async () => {
    // Run as `vplatform env` runs it: the root project, in a language host of its own.
    const refused = path.join(work(), "refused.yaml");
    const stack = await createLocalStack({
      stackName: "e2e-labs-refused",
      stateDir: path.join(work(), "refused-state"),
      connection: { endpoint: run().emu.url, apiKey: run().emu.apiKey, caCert: run().emu.caCert },
      workDir: root,
      config: { "vplatform-lab:environment": refused },
    });
    const preview = async (text: string) => {
      fs.writeFileSync(refused, text);
      return stack.preview().then(
        () => "",
        (e: Error) => e.message,
      );
    };
    await run().reset();
    expect(await preview(classFile(3, "10.100.0.0/23"))).toMatch(
      /refused\.yaml:8:11: labs\[0\]\.pool: the pool 10\.100\.0\.0\/23 holds 2 \/24 networks, too few for 3 copies/,
    );
    // The file's other refusals (a copyName that makes two copies one, a user's role beyond its copy, a vnet of the
    // file in the pool) are the same check at load: env/load-environment.test.ts holds each to its line.
    // A vnet made outside the stack where copy 3's network would go: found by a read at preview.
    const admin = { username: run().emu.adminUser, password: run().emu.adminPassword, https: { certificateAuthority: run().emu.caCert } };
    const office = await got
      .post(`${run().emu.url}/api/v4/vnets`, { ...admin, json: { name: "office", network: "10.100.2.0/24" } })
      .json<{ $key: number }>();
    await run().reset();
    expect(await preview(classFile(3))).toMatch(
      /lab 'class': pool: copy class-03's network 10\.100\.2\.0\/24 overlaps the existing vnet 'office' \(10\.100\.2\.0\/24\): choose a pool clear of it/,
    );
    expect(await mutating()).toBe(0);
    await got.delete(`${run().emu.url}/api/v4/vnets/${office.$key}`, admin);
  }, 600_000);

  // Growing and shrinking a class through the CLI is classLab.test.ts's (CI); through the inline program, the full form.
  if (FULL_FORM) {
    test("grow to 3: only copy 3's resources are created; copies 1 and 2 are unchanged", async () => {
      const before = await urns(run().stack);
      file = classFile(3);
      const up = await run().stack.up(collectInto(run()));
      expect(up.summary.result).toBe("succeeded");
      expect(Object.keys(up.summary.resourceChanges ?? {}).sort()).toEqual(["create", "same"]);
      const after = await urns(run().stack);
      const added = [...after].filter((u) => !before.has(u));
      expect([...before].filter((u) => !after.has(u))).toEqual([]);
      expect(added.length).toBe(up.summary.resourceChanges?.create);
      expect(added.filter((u) => !/::class-03(-|$)/.test(u))).toEqual([]);
      // Every one of them a child of the lab (its VMs' hardware, power and snapshots through their VM).
      expect(added.filter((u) => !u.includes("::vplatform:index:Lab$"))).toEqual([]);
      expect(Object.keys(up.outputs.labs.value.class.copies)).toEqual(["01", "02", "03"]);
      expect(up.outputs.labs.value.class.copies["01"]).toEqual(copies["01"]);
    }, 600_000);

    test("shrink to 2: only copy 3's resources are deleted", async () => {
      const before = await urns(run().stack);
      file = classFile(2);
      const up = await run().stack.up(collectInto(run()));
      expect(Object.keys(up.summary.resourceChanges ?? {}).sort()).toEqual(["delete", "same"]);
      const after = await urns(run().stack);
      const removed = [...before].filter((u) => !after.has(u));
      expect(removed.length).toBe(up.summary.resourceChanges?.delete);
      expect(removed.filter((u) => !/::class-03(-|$)/.test(u))).toEqual([]);
      expect(await run().api("/v4/vms?filter=name%20bw%20'class-03'")).toEqual([]);
      expect(await run().api("/v4/vnets?filter=name%20eq%20'class-03'")).toEqual([]);
    }, 600_000);
  }

  test("destroy leaves nothing of the class", async () => {
    await run().stack.destroy(collectInto(run()));
    expect(await run().api("/v4/vms?fields=name")).toEqual([]); // snapshots included
    expect(await run().api("/v4/vnets?filter=name%20bw%20'class'&fields=name")).toEqual([]);
    expect(await run().api("/v4/users?filter=name%20bw%20'class'&fields=name")).toEqual([]);
    expect(await run().api("/v4/user_api_keys?filter=name%20bw%20'class'&fields=name")).toEqual([]);
  }, 600_000);
});

describe("two builds of one file on two fresh platforms", () => {
  type StateResource = { urn: string; type: string; id?: string; parent?: string; inputs?: object; outputs?: { machineKey?: string } };
  /** The inputs that hold another resource's key, and the type of that resource (a machine key is a VM's). */
  const REFERENCES: Record<string, string> = { user: "User", vm: "VirtualMachine", machine: "VirtualMachine", vnet: "Vnet" };
  /** A grant's row is a key of its table's rows. */
  const ROW_OF_TABLE: Record<string, string> = { vms: "VirtualMachine", vnets: "Vnet" };
  /**
   * The lab's resources as the program declared them, by URN: type, parent and inputs, the project's name (one per
   * stack here), secrets and each create's random marker aside, and a key another resource holds replaced by that
   * resource's URN (the platform numbers rows in the order parallel creates reach it); the providers (their settings
   * are each emulator's) left out.
   */
  const planned = async (stack: Stack, project: string) => {
    const resources = (await stack.exportStack()).deployment.resources as StateResource[];
    const urnOf = new Map<string, string>();
    for (const r of resources) {
      const type = r.type.split(":").pop()!;
      if (r.id) urnOf.set(`${type} ${r.id}`, r.urn);
      if (r.outputs?.machineKey) urnOf.set(`machine ${r.outputs.machineKey}`, r.urn);
    }
    const reference = (key: string, value: unknown) => {
      if (typeof value !== "string" || !(key in REFERENCES)) return undefined;
      return urnOf.get(key === "machine" ? `machine ${value}` : `${REFERENCES[key]} ${value}`);
    };
    const grantRow = (value: unknown) => {
      const g = value as { table?: string; row?: unknown } | null;
      const type = g && typeof g === "object" && g.table !== undefined ? ROW_OF_TABLE[g.table] : undefined;
      return type && typeof g?.row === "string" ? { ...g, row: urnOf.get(`${type} ${g.row}`) ?? g.row } : value;
    };
    const aside = (key: string, value: unknown) =>
      key === "__marker"
        ? "[marker]"
        : value && typeof value === "object" && SECRET_SIG in value
          ? "[secret]"
          : (reference(key, value) ?? grantRow(value));
    return resources
      .filter((r) => !r.type.startsWith("pulumi:"))
      .map((r) => JSON.parse(JSON.stringify({ urn: r.urn, type: r.type, parent: r.parent, inputs: r.inputs }), aside))
      .map((r) => JSON.parse(JSON.stringify(r).replaceAll(project, "P")))
      .sort((x, y) => x.urn.localeCompare(y.urn));
  };

  test("give the same names, networks and structure", async () => {
    const text = classFile(2);
    const program = () => Promise.resolve(buildEnvironment(loadEnvironment("class.yaml", text)));
    const [a, b] = [
      await openCountedStack("labs-a", program, { timeScale: 0.01 }),
      await openCountedStack("labs-b", program, { timeScale: 0.01 }),
    ];
    try {
      const [upA, upB] = [await a.stack.up(), await b.stack.up()];
      const [stateA, stateB] = [await planned(a.stack, "e2e-labs-a"), await planned(b.stack, "e2e-labs-b")];
      expect(stateA.length).toBeGreaterThan(20);
      expect(stateB).toEqual(stateA);
      const shape = (copies: Record<string, CopyOut>) =>
        Object.values(copies).map((c) => ({
          name: c.name,
          network: c.vnet.network,
          vms: Object.values(c.vms)
            .map((v) => v.name)
            .sort(),
        }));
      expect(shape(upB.outputs.labs.value.class.copies)).toEqual(shape(upA.outputs.labs.value.class.copies));
    } finally {
      await a.dispose();
      await b.dispose();
    }
  }, 600_000);
});
