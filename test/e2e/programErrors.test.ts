// A TypeScript program whose own declaration fails (a look-up of a row that is not there, a lab whose pool
// overlaps a network of the platform) fails its preview at once, run by the language host as `pulumi preview`
// runs it: the message said once, with no JavaScript frames and no `error serializing property` chain (Pulumi
// prefixes a failed input's message once per property and resource it passes through: 17 times for a class).
import * as fs from "node:fs";
import * as path from "node:path";
import { collect, e2eWorkDir, startE2e, type E2eContext } from "./harness";

let ctx: E2eContext;
let dir: string;

/** The preview of `program` as index.ts: what the engine said when it failed. */
async function failedPreview(program: string): Promise<{ said: string; seconds: number }> {
  fs.writeFileSync(path.join(dir, "index.ts"), program);
  ctx.output.length = 0;
  const started = Date.now();
  const failure = await ctx.stack.preview(collect(ctx)).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(failure).toBeInstanceOf(Error);
  return { said: ctx.output.join(""), seconds: (Date.now() - started) / 1000 };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;
/** The engine's Diagnostics section of a run's output. */
const diagnostics = (said: string) => said.slice(said.indexOf("Diagnostics:"));

beforeAll(async () => {
  // A user's project beside the package: its own package.json, so TypeScript resolves vplatform as installed.
  dir = e2eWorkDir("program-errors-");
  fs.writeFileSync(path.join(dir, "package.json"), '{ "private": true }\n');
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: program-errors\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "index.ts"), "export {};\n");
  ctx = await startE2e("program-errors", { projectDir: dir });
});
afterAll(async () => {
  await ctx?.dispose();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a program's own failure is said once, plainly, and at once", () => {
  test("a look-up of a vnet that is not there, given to a NIC", async () => {
    const { said, seconds } = await failedPreview(
      [
        'import * as vp from "vplatform";',
        'const net = vp.getVnetOutput({ name: "missing-net" });',
        'const vm = new vp.VirtualMachine("installer", { name: "installer", ram: 2048, powerState: "stopped" });',
        'new vp.Nic("installer-nic", { machine: vm.machineKey, vnet: net.id });',
      ].join("\n"),
    );
    // Once among the diagnostics (the engine shows it on the stack's row as well).
    expect(occurrences(diagnostics(said), "error: vplatform: getVnet: no vnet named 'missing-net'")).toBe(1);
    expect(said).not.toMatch(/\n\s+at .*:\d+|Unhandled exception|error serializing property/);
    // Not held open by a kept-alive connection (the emulator closes idle ones after 72 s): as long as a good preview.
    expect(seconds).toBeLessThan(45);
  }, 120_000);

  test("a lab whose pool overlaps a network on the platform: the check's message, with no serializer prefixes", async () => {
    await ctx.api("POST", "/v4/vnets", { name: "taken", network: "10.100.1.0/24" });
    const { said } = await failedPreview(
      [
        'import * as vp from "vplatform";',
        'const course = new vp.Lab("course", { copies: 3, pool: "10.100.0.0/16", vms: [{ name: "web", nics: [{}] }] });',
        "export const students = course.copies;",
      ].join("\n"),
    );
    const message =
      "lab 'course': pool: copy course-02's network 10.100.1.0/24 overlaps the existing vnet 'taken' (10.100.1.0/24): choose a pool clear of it";
    expect(occurrences(diagnostics(said), `error: ${message}`)).toBe(1);
    expect(said).not.toMatch(/\n\s+at .*:\d+|Unhandled exception|error serializing property/);
  }, 120_000);
});
