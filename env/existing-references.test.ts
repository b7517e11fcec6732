import { existingReferences, missingReferences } from "./existing-references";
import { loadEnvironmentSource } from "./load-environment";

const FILE = `vnets:
  - { name: lab, network: 10.20.0.0/24 }
vms:
  - name: golden
  - name: web
    cloneFrom: { vm: gold }
    nics:
      - { vnet: labb }
      - { vnet: lab }
      - { vnet: "12" }
users:
  - { name: ci }
apiKeys:
  - { name: ci, user: ci }
  - { name: ops, user: operator }
webhooks:
  - { name: hook, url: "https://hooks.example/x" }
tasks:
  - { name: t, webhook: hook }
eventTriggers:
  - { task: t, type: vms, event: poweroff, object: db }
  - { task: t, type: vms, event: poweron, object: web }
labs:
  - name: course
    copies: 2
    pool: 10.100.0.0/16
    vms:
      - { name: base }
      - { name: student, cloneFrom: { vm: base }, nics: [{}, { vnet: shared }] }
      - { name: other, cloneFrom: { vm: image } }
`;

describe("references to rows the file does not declare", () => {
  const { env, locate } = loadEnvironmentSource("env.yaml", FILE);
  const refs = existingReferences(env);

  test("are every NIC's vnet, clone's template, VM trigger's object and key's user written by a name the file lacks", () => {
    expect(refs.map((r) => `${r.noun} ${r.name} at ${r.path.join(".")}`)).toEqual([
      "VM gold at vms.1.cloneFrom.vm",
      "vnet labb at vms.1.nics.0.vnet",
      "vnet shared at labs.0.vms.1.nics.1.vnet",
      "VM image at labs.0.vms.2.cloneFrom.vm",
      "VM db at eventTriggers.0.object",
      "user operator at apiKeys.1.user",
    ]);
  });

  test("leave out keys, names the file declares, a lab's own template VMs and a lab NIC without a vnet (its copy's)", () => {
    expect(refs.map((r) => r.name)).not.toEqual(expect.arrayContaining(["12", "lab", "golden", "web", "ci", "base"]));
  });

  test("one missing on the platform is a file error at the line and column that names it, saying what to do", () => {
    const names = new Map([
      ["vnets", new Set(["shared"])],
      ["vms", new Set(["gold", "image"])],
      ["users", new Set(["operator"])],
    ]);
    expect(missingReferences(refs, names, locate).map((p) => `${p.location.line}:${p.location.col} ${p.path}: ${p.message}`)).toEqual([
      "8:17 vms[1].nics[0].vnet: no vnet named 'labb' is declared in this file or exists on the platform: declare it here, correct the name, or give an existing vnet's key",
      "21:52 eventTriggers[0].object: no VM named 'db' is declared in this file or exists on the platform: declare it here, correct the name, or give an existing VM's key",
    ]);
  });

  test("all present on the platform: no problem", () => {
    const names = new Map([
      ["vnets", new Set(["labb", "shared"])],
      ["vms", new Set(["gold", "image", "db"])],
      ["users", new Set(["operator"])],
    ]);
    expect(missingReferences(refs, names, locate)).toEqual([]);
  });
});
