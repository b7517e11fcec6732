// Names the platform keeps unique, declared twice in one TypeScript program, are refused at
// preview by the SDK, naming the field, before any request that changes something: here two VMs
// of one name (the program-wide scope is the run's stack resource); the per-VM scope of hardware
// names is tested in sdk/uniqueNames.test.ts. A project run by the language host: the program's
// error stays in its own process.
import * as fs from "node:fs";
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext } from "./harness";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const vp = require("vplatform");
const twice = new pulumi.Config().get("twice");
const vm = new vp.VirtualMachine("vm", { name: "dup-vm", ram: 1024, powerState: "stopped" });
new vp.Drive("vm-os", { machine: vm.machineKey, name: "os", media: "disk", disksize: 1024 ** 3 });
if (twice === "vm") new vp.VirtualMachine("vm-again", { name: "dup-vm", ram: 1024, powerState: "stopped" });
`;

let ctx: E2eContext;
let dir: string;
beforeAll(async () => {
  const base = path.join(findRepoRoot(), ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  dir = fs.mkdtempSync(path.join(base, "dup-names-project-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: dup-names\nruntime: nodejs\nmain: index.js\n");
  fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
  ctx = await startE2e("duplicate-names", { projectDir: dir });
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a name declared twice in one program is refused at preview, naming the field", () => {
  test("two VMs with one name", async () => {
    await ctx.stack.setConfig("twice", { value: "vm" });
    await ctx.resetRequestCounts();
    const failed = await ctx.stack.preview(collect(ctx)).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error).message)).toMatch(
      /VirtualMachine 'vm-again': name: 'dup-vm' is already the name of VirtualMachine 'vm' in this program; names must be unique there — rename one/,
    );
    expect((await ctx.requestCounts()).entries.filter((e) => e.method !== "GET")).toEqual([]);
  }, 120_000);
});
