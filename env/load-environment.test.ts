import * as path from "path";
import { deviceShape } from "../provider/schemas/device";
import { driveShape } from "../provider/schemas/drive";
import { nicShape } from "../provider/schemas/nic";
import { virtualMachineShape } from "../provider/schemas/virtualMachine";
import { vnetShape } from "../provider/schemas/vnet";
import { loadEnvironment } from "./load-environment";
import { EnvironmentError } from "./yaml-source";

const examples = path.join(__dirname, "..", "examples", "environments");

function problems(text: string): string[] {
  try {
    loadEnvironment("env.yaml", text);
  } catch (e) {
    if (e instanceof EnvironmentError) return e.message.split("\n");
    throw e;
  }
  throw new Error("expected an EnvironmentError");
}

describe("environment definitions are validated with the provider's own schemas", () => {
  test("the example lab is valid, with sizes in bytes and NICs defaulting to enabled", () => {
    const env = loadEnvironment(path.join(examples, "lab.yaml"));
    expect(env.vnets.map((v) => v.name)).toEqual(["lab"]);
    const db = env.vms.find((v) => v.name === "db")!;
    expect(db.drives.map((d) => d.disksize)).toEqual([20 * 2 ** 30, 50 * 2 ** 30]);
    expect(db.nics[0]).toMatchObject({ vnet: "lab", enabled: true, interface: "virtio" });
  });

  test("the full example uses every field of every resource schema", () => {
    const env = loadEnvironment(path.join(examples, "full.yaml"));
    const used = (rows: object[]) => new Set(rows.flatMap((r) => Object.keys(r)));
    const missing = (shape: object, rows: object[], implied: string[] = []) =>
      Object.keys(shape).filter((k) => !implied.includes(k) && !used(rows).has(k));
    expect(missing(vnetShape, env.vnets)).toEqual([]);
    expect(missing(virtualMachineShape, env.vms)).toEqual([]);
    const hw = <K extends "drives" | "nics" | "devices">(k: K) => env.vms.flatMap((v) => v[k] as object[]);
    // The VM's machine key, key and power policy are implied by nesting.
    const implied = ["machine", "vm", "powerCyclePolicy"];
    expect(missing(driveShape, hw("drives"), implied)).toEqual([]);
    expect(missing(nicShape, hw("nics"), implied)).toEqual([]);
    expect(missing(deviceShape, hw("devices"), implied)).toEqual([]);
  });

  test("a bound of the VM schema is reported at its line and column", () => {
    expect(problems("vms:\n  - name: web\n    ram: 128\n")).toEqual(["env.yaml:3:10: vms[0].ram: RAM must be at least 512 MB"]);
  });

  test("a drive rule (import needs a mediaSource) applies to nested drives", () => {
    expect(problems("vms:\n  - name: web\n    drives:\n      - media: import\n")).toEqual([
      expect.stringMatching(/^env\.yaml:4:9: vms\[0\]\.drives\[0\]\.mediaSource: media 'import' needs a mediaSource/),
    ]);
  });

  test("a vnet's DHCP range must lie inside its network", () => {
    const text = "vnets:\n  - name: n\n    network: 10.0.0.0/24\n    dhcpStart: 10.0.1.5\n    dhcpStop: 10.0.0.9\n";
    expect(problems(text)).toEqual(expect.arrayContaining([expect.stringMatching(/env\.yaml:4:16: vnets\[0\]\.dhcpStart: 10\.0\.1\.5 is outside/)]));
  });

  test("names must be unique and clone references must not form a cycle", () => {
    const text = "vms:\n  - name: a\n    cloneFrom: { vm: b }\n  - name: b\n    cloneFrom: { vm: a }\n  - name: a\n";
    const found = problems(text).join("\n");
    expect(found).toMatch(/vms\[2\]\.name: VM name 'a' is declared twice/);
    expect(found).toMatch(/vms: cloneFrom references form a cycle/);
  });

  test("hardware nested under a VM cannot name a machine of its own", () => {
    expect(problems("vms:\n  - name: web\n    nics:\n      - vnet: lab\n        machine: 5\n")[0]).toMatch(/vms\[0\]\.nics\[0\].*machine/);
  });

  test("sizes take units", () => {
    const env = loadEnvironment("s.yaml", "vms:\n  - name: w\n    drives:\n      - disksize: 512MiB\n      - disksize: 1.5GB\n");
    expect(env.vms[0].drives.map((d) => d.disksize)).toEqual([512 * 2 ** 20, 1.5e9]);
  });
});
