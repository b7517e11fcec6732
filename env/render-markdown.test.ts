import { loadEnvironment } from "./load-environment";
import type { Plan, PlannedChange } from "./plan";
import { environmentDiagram, renderMarkdown } from "./render-markdown";
import type { Report } from "./render-plan";

const FILE = `vnets:
  - { name: lab, network: 10.0.0.0/24 }
vms:
  - name: web
    cpuCores: 2
    ram: 4096
    powerState: running
    drives: [{ name: os, media: disk, disksize: 20GiB }]
    nics: [{ vnet: lab }]
  - name: db
    cpuCores: 4
    ram: 8192
    drives: [{ name: data, media: disk, disksize: 100GiB }]
    nics: [{ vnet: shared-services }]
`;
const environment = loadEnvironment("environments/dev.yaml", FILE, "dev");
const urn = (type: string, name: string) => `urn:pulumi:dev::vplatform-env::pulumi-nodejs:dynamic/vplatform:${type}::${name}`;
const change = (
  action: PlannedChange["action"],
  type: string,
  name: string,
  fields: PlannedChange["fields"] = [],
  extra: Partial<PlannedChange> = {},
) => ({ action, type, name, urn: urn(type, name), fields, ...extra }) as PlannedChange;

const plan: Plan = {
  changes: [
    change("update", "VirtualMachine", "web", [{ field: "ram", before: 2048, after: 4096 }]),
    change("create", "Drive", "db-drive-data", [{ field: "disksize", after: 100 * 2 ** 30 }]),
    change("replace", "Drive", "web-drive-os", [{ field: "media", before: "import", after: "disk" }], { replaceKeys: ["media"] }),
    change("delete", "VirtualMachine", "old-cache"),
  ],
  counts: { create: 1, update: 1, replace: 1, delete: 1, same: 4 },
  outside: [],
  warnings: [
    "ram 2048 → 4096 needs a power cycle of VM 'web': the VM will be RESTARTED",
    "drive 'os' of machine 12 is REPLACED (media import → disk): its data is lost",
  ],
  errors: [],
};
const report: Report = { command: "preview", stack: "dev", file: "environments/dev.yaml", result: "changes", exitCode: 0, plan };

describe("the plan as a pull-request comment", () => {
  const md = renderMarkdown(report, environment);

  test("opens with the stack, the file and the counts", () => {
    expect(md).toMatch(
      /^### vplatform Plan: stack `dev`, `environments\/dev\.yaml`\n\n\*\*1 to create, 1 to update, 1 to replace, 1 to delete, 4 unchanged\*\*/,
    );
  });

  test("lists what needs attention first: data loss, then replacements and deletions, then restarts", () => {
    const attention = md.slice(md.indexOf("#### Needs attention"), md.indexOf("#### Changes"));
    const order = ["its data is lost", "`web-drive-os` is **replaced** (because of media)", "`old-cache` is **deleted**", "RESTARTED"].map(
      (t) => attention.indexOf(t),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test("tabulates each changed field before → after, the table coming after the attention items", () => {
    expect(md).toContain("| ✏️ update | VirtualMachine `web` | ram | `2048` | `4096` |");
    expect(md).toContain("| ➕ create | Drive `db-drive-data` | disksize |  | `107374182400 (107.37 GB = 100 GiB)` |");
    expect(md).toContain("| 🗑️ delete | VirtualMachine `old-cache` | | | |");
    expect(md.indexOf("#### Needs attention")).toBeLessThan(md.indexOf("#### Changes"));
  });

  test("ends with the environment as a Mermaid diagram", () => {
    expect(md).toMatch(/#### Environment\n\n```mermaid\nflowchart LR\n[\s\S]*\n```\n/);
  });

  test("a plan without changes says so, without an empty table", () => {
    const none = renderMarkdown(
      { ...report, result: "no-changes", plan: { ...plan, changes: [], warnings: [], counts: { ...plan.counts } } },
      environment,
    );
    expect(none).toContain("**No changes.**");
    expect(none).not.toContain("#### Changes");
  });

  test("a run that failed opens with the failure, never with 'No changes'", () => {
    const empty = { ...plan, changes: [], warnings: [], counts: { ...plan.counts } };
    const failed = renderMarkdown({ ...report, result: "failed", exitCode: 1, plan: empty }, environment);
    expect(failed.split("\n")[2]).toBe("**FAILED** (exit 1): see the job's log.");
    expect(failed).not.toContain("No changes");
    const planned = renderMarkdown({ ...report, result: "failed", exitCode: 1 }, environment);
    expect(planned.split("\n")[2]).toMatch(/^\*\*FAILED\*\* \(exit 1\); planned: \d+ to create/);
  });
});

describe("the environment diagram", () => {
  const diagram = environmentDiagram(environment, plan.changes);

  test("draws each VM as a box holding its drives and NICs, each NIC linked to its vnet", () => {
    expect(diagram).toMatch(/subgraph g\d+\["VM web"\]/);
    expect(diagram).toMatch(/subgraph g\d+\["VM db"\]/);
    const nicOfWeb = /(n\d+)\["NIC 0"\]/.exec(diagram.slice(diagram.indexOf('"VM web"')))![1];
    const lab = /(n\d+)\[\("vnet lab<br\/>10\.0\.0\.0\/24"\)\]/.exec(diagram)![1];
    expect(diagram).toContain(`${nicOfWeb} --- ${lab}`);
  });

  test("marks created, changed, replaced and deleted resources; a vnet outside the file is drawn unmarked", () => {
    expect(diagram).toMatch(/\(\["✏️ VM web<br\/>2 cores, 4096 MB, running"\]\):::update/);
    expect(diagram).toMatch(/\["➕ drive data 100 GiB"\]:::create/);
    expect(diagram).toMatch(/\["♻️ drive os 20 GiB"\]:::replace/);
    expect(diagram).toMatch(/subgraph g\d+\["removed from the file"\]\n\s+n\d+\["🗑️ VirtualMachine old-cache"\]:::delete/);
    expect(diagram).toMatch(/\[\("vnet shared-services \(existing\)"\)\]\n/);
  });

  test("draws each other list of the file as a box of its entries, marked as the plan says", () => {
    const automation = loadEnvironment(
      "env.yaml",
      `${FILE}webhooks:\n  - { name: alerts, url: https://hooks.example/a }\ntasks:\n  - { name: page, webhook: alerts }\neventTriggers:\n  - { task: page, type: vms, event: poweroff, object: web }\n`,
    );
    const drawn = environmentDiagram(automation, [change("create", "Task", "page")]);
    expect(drawn).toMatch(/subgraph g\d+\["webhooks"\]\n\s+n\d+\["webhook alerts"\]\n\s+end/);
    expect(drawn).toMatch(/subgraph g\d+\["tasks"\]\n\s+n\d+\["➕ task page"\]:::create\n\s+end/);
    expect(drawn).toMatch(/subgraph g\d+\["eventTriggers"\]\n\s+n\d+\["event trigger page-vms-poweroff-web"\]\n\s+end/);
    expect(drawn).not.toContain('["users"]'); // an empty list is not drawn
  });

  test("draws each lab as one box, marked by its copies' changes; a copy removed is drawn as removed", () => {
    const withLab = loadEnvironment(
      "env.yaml",
      `${FILE}labs:\n  - { name: course, copies: 2, pool: 10.100.0.0/16, vms: [{ name: web }] }\n`,
    );
    const grown = environmentDiagram(withLab, [change("create", "Vnet", "course-02"), change("create", "VirtualMachine", "course-02-web")]);
    expect(grown).toMatch(/subgraph g\d+\["labs"\]\n\s+n\d+\["➕ lab course<br\/>2 copies of 1 VMs, 10\.100\.0\.0\/16"\]:::create\n\s+end/);
    expect(grown).not.toContain("removed from the file");
    const shrunk = environmentDiagram(withLab, [change("delete", "VirtualMachine", "course-03-web")]);
    expect(shrunk).toMatch(/\["lab course<br\/>2 copies of 1 VMs, 10\.100\.0\.0\/16"\]\n/);
    expect(shrunk).toMatch(/subgraph g\d+\["removed from the file"\]\n\s+n\d+\["🗑️ VirtualMachine course-03-web"\]:::delete/);
    expect(environmentDiagram(withLab, [change("create", "Vnet", "course-02"), change("update", "Vnet", "course-01")])).toMatch(
      /\["✏️ lab course/,
    );
  });

  test("quotes in names cannot break a label", () => {
    const quoted = environmentDiagram({ ...environment, vnets: [{ ...environment.vnets[0], name: 'a"b' }] }, []);
    expect(quoted).toContain('"vnet a#quot;b<br/>10.0.0.0/24"');
  });
});
