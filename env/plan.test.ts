import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";
import {
  bookkeepingInputsOf,
  isBookkeepingOnly,
  planFromEvents,
  UNKNOWN,
  UNKNOWN_VALUE,
  visibleChanges,
  type Action,
  type PlannedChange,
} from "./plan";
import { withUnits } from "../provider/schemas/sizes";
import { formatField, renderJson, renderText, type Report } from "./render-plan";
import { EXIT, outcome } from "./run-command";

const TYPE = "pulumi-nodejs:dynamic/vplatform:";
const urn = (type: string, name: string) => `urn:pulumi:dev::envs::${TYPE}${type}::${name}`;
type Bag = Record<string, unknown>;
let seq = 0;

function step(
  kind: "resourcePreEvent" | "resOutputsEvent",
  op: OpType,
  type: string,
  name: string,
  old?: Bag,
  neu?: Bag,
  extra: Bag = {},
): EngineEvent {
  const state = (inputs: Bag, id = "7") => ({
    type: TYPE + type,
    urn: urn(type, name),
    id,
    parent: "",
    provider: "",
    inputs,
    outputs: inputs,
  });
  const metadata = {
    op,
    urn: urn(type, name),
    type: TYPE + type,
    provider: "",
    ...(old ? { old: state({ __provider: "code", ...old }) } : {}),
    ...(neu ? { new: state({ __provider: "code", ...neu }, (neu.id as string) ?? "7") } : {}),
    ...extra,
  };
  return { sequence: seq++, timestamp: 0, [kind]: { metadata } } as EngineEvent;
}
const pre = (op: OpType, type: string, name: string, old?: Bag, neu?: Bag, extra?: Bag) =>
  step("resourcePreEvent", op, type, name, old, neu, extra);
const diag = (severity: "info" | "warning" | "error", message: string): EngineEvent =>
  ({ sequence: seq++, timestamp: 0, diagnosticEvent: { severity, message, color: "never" } }) as EngineEvent;

describe("a plan is built from the engine's events", () => {
  test("each action lists the fields that change, old → new, without the provider's code", () => {
    const plan = planFromEvents([
      pre("same", "Vnet", "lab", { name: "lab" }, { name: "lab" }),
      pre("update", "VirtualMachine", "web", { name: "web", ram: 2048, cpuCores: 2 }, { name: "web", ram: 4096, cpuCores: 2 }),
      pre("create", "Drive", "web-drive-data", undefined, { name: "data", disksize: 1024, machine: UNKNOWN_VALUE }),
      pre("delete", "Nic", "web-nic-0", { vnet: "3" }, undefined),
    ]);
    expect(plan.counts).toEqual({ create: 1, update: 1, replace: 0, delete: 1, same: 1 });
    expect(plan.changes).toEqual([
      {
        action: "update",
        type: "VirtualMachine",
        name: "web",
        urn: urn("VirtualMachine", "web"),
        fields: [{ field: "ram", before: 2048, after: 4096 }],
      },
      {
        action: "create",
        type: "Drive",
        name: "web-drive-data",
        urn: urn("Drive", "web-drive-data"),
        fields: [
          { field: "disksize", after: 1024 },
          { field: "machine", after: UNKNOWN },
          { field: "name", after: "data" },
        ],
      },
      { action: "delete", type: "Nic", name: "web-nic-0", urn: urn("Nic", "web-nic-0"), fields: [] },
    ]);
  });

  test("secrets show as [secret] and unknowns as known after update, at any depth; a changed secret still shows as changed", () => {
    const secret = (ciphertext: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext });
    const plan = planFromEvents([
      pre(
        "update",
        "VirtualMachine",
        "web",
        { consolePassHash: secret("a") },
        { consolePassHash: secret("b"), cloneFrom: { vm: UNKNOWN_VALUE } },
      ),
    ]);
    expect(plan.changes[0].fields).toEqual([
      { field: "cloneFrom", after: { vm: UNKNOWN } },
      { field: "consolePassHash", before: "[secret]", after: "[secret]" },
    ]);
  });

  test("a replacement's three steps make one entry that names the inputs forcing it", () => {
    const plan = planFromEvents([
      pre("create-replacement", "Drive", "os", { media: "disk" }, { media: "import" }),
      pre("replace", "Drive", "os", { media: "disk" }, { media: "import" }, { keys: ["media"] }),
      pre("delete-replaced", "Drive", "os", { media: "disk" }, { media: "import" }),
    ]);
    expect(plan.changes).toEqual([
      expect.objectContaining({ action: "replace", replaceKeys: ["media"], fields: [{ field: "media", before: "disk", after: "import" }] }),
    ]);
    expect(plan.counts.replace).toBe(1);
  });

  test("the provider's bookkeeping inputs (create marker, the VM's key and policy copied into its hardware) are not shown as changes", () => {
    const owner = { __marker: "0123456789abcdef", vm: UNKNOWN_VALUE, powerCyclePolicy: "restart" };
    const plan = planFromEvents([
      pre("create", "Drive", "web-drive-os", undefined, { name: "os", machine: UNKNOWN_VALUE, ...owner }),
      pre(
        "update",
        "Nic",
        "web-nic-0",
        { vnet: "2", vm: "7", powerCyclePolicy: "restart" },
        { vnet: "2", vm: "7", powerCyclePolicy: "refuse" },
      ),
      pre("refresh", "Drive", "web-drive-data", { name: "data", vm: "7" }, { name: "data", vm: "7" }),
      step("resOutputsEvent", "update", "Drive", "web-drive-data", { name: "data", vm: "7" }, { name: "data", vm: "8" }),
    ]);
    expect(plan.changes).toEqual([
      {
        action: "create",
        type: "Drive",
        name: "web-drive-os",
        urn: urn("Drive", "web-drive-os"),
        fields: [
          { field: "machine", after: UNKNOWN },
          { field: "name", after: "os" },
        ],
        bookkeeping: [
          { field: "__marker", after: "0123456789abcdef" },
          { field: "powerCyclePolicy", after: "restart" },
          { field: "vm", after: UNKNOWN },
        ],
      },
      // The engine's step stays what it is; the text says it is bookkeeping alone.
      {
        action: "update",
        type: "Nic",
        name: "web-nic-0",
        urn: urn("Nic", "web-nic-0"),
        fields: [],
        bookkeeping: [{ field: "powerCyclePolicy", before: "restart", after: "refuse" }],
      },
    ]);
    expect(plan.outside).toEqual([]);
    const text = renderText({ command: "preview", stack: "dev", file: "dev.yaml", result: "changes", exitCode: 0, plan });
    expect(text).not.toMatch(/__marker|vm:|powerCyclePolicy:/);
    expect(text).toMatch(
      /~ +update +Nic 'web-nic-0'\n +\(only the provider's bookkeeping: powerCyclePolicy; nothing is sent to the platform\)/,
    );
  });

  test("hardware of a VM updated in place keeps its machine: an unknown machine with the same, known vm is no change", () => {
    const plan = planFromEvents([
      pre(
        "update",
        "Drive",
        "web-drive-os",
        { machine: "102", vm: "7", powerCyclePolicy: "refuse" },
        { machine: UNKNOWN_VALUE, vm: "7", powerCyclePolicy: "restart" },
      ),
      pre(
        "update",
        "Nic",
        "web-nic-0",
        { machine: "102", vm: "7", powerCyclePolicy: "refuse" },
        { machine: UNKNOWN_VALUE, vm: UNKNOWN_VALUE, powerCyclePolicy: "restart" },
      ),
      pre("update", "VmPower", "web-power", { machine: "102", vm: "7" }, { machine: UNKNOWN_VALUE, vm: "7" }),
    ]);
    expect(plan.changes.map((c) => [c.name, c.fields.map((f) => f.field), c.bookkeeping?.map((f) => f.field)])).toEqual([
      ["web-drive-os", [], ["powerCyclePolicy"]],
      // A VM being replaced: its key is unknown too, the machine may change.
      ["web-nic-0", ["machine"], ["powerCyclePolicy", "vm"]],
      // Not hardware: the rule does not apply.
      ["web-power", ["machine"], undefined],
    ]);
  });

  test("which inputs are bookkeeping depends on the type: hardware's vm and powerCyclePolicy, every resource's hidden inputs", () => {
    const hidden = ["__marker", "__startAfterHardware", "__powerByVmPower"];
    for (const type of ["Drive", "Nic", "Device"])
      expect([...bookkeepingInputsOf(TYPE + type)].sort()).toEqual([...hidden, "powerCyclePolicy", "vm"].sort());
    for (const type of ["VirtualMachine", "VmPower", "VmSnapshot", "Vnet"]) expect([...bookkeepingInputsOf(TYPE + type)]).toEqual(hidden);
  });

  test("a VM's own powerCyclePolicy and a VmPower's vm are declared inputs: they show as changes", () => {
    const plan = planFromEvents([
      pre("update", "VirtualMachine", "web", { powerCyclePolicy: "restart" }, { powerCyclePolicy: "refuse" }),
      pre("replace", "VmPower", "web-power", { vm: "7" }, { vm: "8" }, { keys: ["vm"] }),
    ]);
    expect(plan.changes.map((c) => [c.name, c.fields, c.bookkeeping])).toEqual([
      ["web", [{ field: "powerCyclePolicy", before: "restart", after: "refuse" }], undefined],
      ["web-power", [{ field: "vm", before: "7", after: "8" }], undefined],
    ]);
  });

  test("the stack and the default provider are Pulumi's, not the user's", () => {
    const plan = planFromEvents([
      {
        sequence: 0,
        timestamp: 0,
        resourcePreEvent: {
          metadata: { op: "create", urn: "urn:pulumi:dev::envs::pulumi:pulumi:Stack::envs-dev", type: "pulumi:pulumi:Stack", provider: "" },
        },
      },
      {
        sequence: 1,
        timestamp: 0,
        resourcePreEvent: {
          metadata: {
            op: "create",
            urn: "urn:pulumi:dev::envs::pulumi:providers:pulumi-nodejs::default",
            type: "pulumi:providers:pulumi-nodejs",
            provider: "",
          },
        },
      },
    ] as EngineEvent[]);
    expect(plan.changes).toEqual([]);
  });

  test("a refresh that reads other inputs than recorded reports a change made outside Pulumi, and a vanished resource as deleted", () => {
    const plan = planFromEvents([
      pre("refresh", "VirtualMachine", "web", { ram: 2048 }, { ram: 2048 }),
      step("resOutputsEvent", "update", "VirtualMachine", "web", { ram: 2048, status: "stopped" }, { ram: 4096, status: "stopped" }),
      pre("refresh", "Nic", "nic", { vnet: "2" }, { vnet: "2" }),
      step("resOutputsEvent", "delete", "Nic", "nic", { vnet: "2" }, undefined),
      pre("refresh", "Vnet", "lab", { name: "lab" }, { name: "lab" }),
      step("resOutputsEvent", "same", "Vnet", "lab", { name: "lab" }, { name: "lab" }),
      // Outputs of an update (not a refresh) are not changes made outside Pulumi.
      step("resOutputsEvent", "update", "Drive", "d", { disksize: 1 }, { disksize: 2 }),
    ]);
    expect(plan.outside).toEqual([
      { type: "VirtualMachine", name: "web", urn: urn("VirtualMachine", "web"), fields: [{ field: "ram", before: 2048, after: 4096 }] },
      { type: "Nic", name: "nic", urn: urn("Nic", "nic"), deleted: true, fields: [] },
    ]);
    expect(plan.changes).toEqual([]);
  });

  test("a component's refresh (a lab: no id, nothing on the platform) is no change made outside Pulumi", () => {
    const component = {
      type: "vplatform:index:Lab",
      urn: "urn:pulumi:dev::envs::vplatform:index:Lab::course",
      id: "",
      inputs: {},
      outputs: {},
    };
    const metadata = { op: "refresh", urn: component.urn, type: component.type, provider: "", old: component, new: component };
    const plan = planFromEvents([
      { sequence: seq++, timestamp: 0, resourcePreEvent: { metadata } },
      { sequence: seq++, timestamp: 0, resOutputsEvent: { metadata } },
    ] as EngineEvent[]);
    expect(plan).toMatchObject({ outside: [], changes: [] });
  });

  test("the provider's messages are warnings, its wait progress is not, errors are kept apart", () => {
    const plan = planFromEvents([
      diag("info", "vplatform: VirtualMachine 1: ram 2048 → 4096 needs a power cycle of VM 'web': the VM will be RESTARTED\n"),
      diag("info", "vplatform: waiting for VM 'web' to reach running (0s/60s, status starting)\n"),
      diag("info", "some unrelated program output\n"),
      diag("warning", "\u001b[33mdeprecated thing\u001b[0m"),
      diag("error", "update failed"),
      diag("info", "vplatform: VirtualMachine 1: ram 2048 → 4096 needs a power cycle of VM 'web': the VM will be RESTARTED\n"),
    ]);
    expect(plan.warnings).toEqual([
      "vplatform: VirtualMachine 1: ram 2048 → 4096 needs a power cycle of VM 'web': the VM will be RESTARTED",
      "deprecated thing",
    ]);
    expect(plan.errors).toEqual(["update failed"]);
  });

  test("a line shown on its resource while it works (ephemeral: a wait, a network powered on at create) is no warning", () => {
    const shown = { ...diag("info", "vplatform: vnet 'course-01': powerState is running: powering it on\n") } as EngineEvent;
    shown.diagnosticEvent!.ephemeral = true;
    const plan = planFromEvents([shown, diag("info", "vplatform: vnet 'lab': mtu 1500 → 9000 RESTARTS the running network\n")]);
    expect(plan.warnings).toEqual(["vplatform: vnet 'lab': mtu 1500 → 9000 RESTARTS the running network"]);
  });

  test("a policy pack's verdicts: a mandatory one is an error, an advisory one a warning, each naming the rule, the resource and the violation (the engine's bare 'preview failed' dropped)", () => {
    const policy = (enforcementLevel: "mandatory" | "warning", policyName: string, message: string) =>
      ({
        sequence: seq++,
        timestamp: 0,
        policyEvent: {
          resourceUrn: "urn:pulumi:prod::vplatform-env::pulumi-nodejs:dynamic/vplatform:VirtualMachine::web",
          message,
          color: "never",
          policyName,
          policyPackName: "vplatform",
          policyPackVersion: "0.1.0",
          policyPackVersionTag: "0.1.0",
          enforcementLevel,
        },
      }) as EngineEvent;
    const plan = planFromEvents([
      policy(
        "mandatory",
        "prod-vms-refuse-power-cycle",
        "VMs of production stacks set `powerCyclePolicy: refuse`\nstack 'prod' is production (prod*): set powerCyclePolicy: refuse on VM 'web'",
      ),
      policy("warning", "vm-size-limits", "VM 'web': ram 131072 MB is above the limit of 65536 MB"),
      diag("error", "preview failed"),
    ]);
    expect(plan.errors).toEqual([
      "policy prod-vms-refuse-power-cycle (VirtualMachine web): stack 'prod' is production (prod*): set powerCyclePolicy: refuse on VM 'web'",
    ]);
    expect(plan.warnings).toEqual(["policy vm-size-limits (VirtualMachine web): VM 'web': ram 131072 MB is above the limit of 65536 MB"]);
  });
});

describe("a plan's changes as its reader sees them", () => {
  const change = (action: Action, fields: boolean, bookkeeping: boolean): PlannedChange => ({
    action,
    type: "Drive",
    name: "d",
    urn: urn("Drive", "d"),
    fields: fields ? [{ field: "disksize", before: 1, after: 2 }] : [],
    ...(bookkeeping ? { bookkeeping: [{ field: "powerCyclePolicy", before: "restart", after: "refuse" }] } : {}),
  });
  const cases = (["create", "update", "replace", "delete"] as const).flatMap((action) =>
    [false, true].flatMap((fields) => [false, true].map((bookkeeping) => ({ action, fields, bookkeeping }))),
  );

  test.each(cases)("$action with declared fields: $fields, bookkeeping: $bookkeeping", ({ action, fields, bookkeeping }) => {
    // Only an update of bookkeeping inputs alone is bookkeeping-only; an update that shows nothing stays a change.
    expect(isBookkeepingOnly(change(action, fields, bookkeeping))).toBe(action === "update" && !fields && bookkeeping);
  });

  test("no step is no change; bookkeeping-only steps alone are bookkeeping-only; any other step makes it a change", () => {
    const bookkeepingOnly = change("update", false, true);
    expect(visibleChanges([])).toBe("none");
    expect(visibleChanges([bookkeepingOnly])).toBe("bookkeeping-only");
    expect(visibleChanges([bookkeepingOnly, { ...bookkeepingOnly, name: "e" }])).toBe("bookkeeping-only");
    for (const other of cases.map((c) => change(c.action, c.fields, c.bookkeeping)).filter((c) => !isBookkeepingOnly(c))) {
      expect(visibleChanges([other])).toBe("changes");
      expect(visibleChanges([bookkeepingOnly, other])).toBe("changes");
      expect(visibleChanges([other, bookkeepingOnly])).toBe("changes");
    }
  });
});

describe("exit codes CI can use", () => {
  const withChange = planFromEvents([pre("update", "VirtualMachine", "web", { ram: 1 }, { ram: 2 })]);
  const none = planFromEvents([pre("same", "VirtualMachine", "web", { ram: 1 }, { ram: 1 })]);

  test("drift exits 2 when the platform differs from the file and 0 when it matches", () => {
    expect(outcome("drift", withChange)).toEqual({ result: "drift", exitCode: EXIT.drift });
    expect(outcome("drift", none)).toEqual({ result: "no-drift", exitCode: EXIT.ok });
    expect(EXIT.drift).toBe(2);
  });

  // A VM's policy changed by an `up --target` of the VM alone: its NIC still records the old one.
  const bookkeepingOnly = planFromEvents([
    pre("update", "Nic", "web-nic-0", { vnet: "2", powerCyclePolicy: "restart" }, { vnet: "2", powerCyclePolicy: "refuse" }),
  ]);
  const bookkeepingAndChange = planFromEvents([
    pre("update", "Nic", "web-nic-0", { powerCyclePolicy: "restart" }, { powerCyclePolicy: "refuse" }),
    pre("update", "VirtualMachine", "web", { ram: 1 }, { ram: 2 }),
  ]);

  test("drift follows what the plan shows: bookkeeping inputs alone are no drift, with them any other change still is", () => {
    expect(outcome("drift", bookkeepingOnly)).toEqual({ result: "no-drift", exitCode: EXIT.ok });
    expect(outcome("drift", bookkeepingAndChange)).toEqual({ result: "drift", exitCode: EXIT.drift });
  });

  test("a preview succeeds whether or not it has changes, and says which (bookkeeping alone is none)", () => {
    expect(outcome("preview", withChange)).toEqual({ result: "changes", exitCode: 0 });
    expect(outcome("preview", none)).toEqual({ result: "no-changes", exitCode: 0 });
    expect(outcome("preview", bookkeepingOnly)).toEqual({ result: "no-changes", exitCode: 0 });
  });

  test("up, refresh and destroy exit 0 when they succeeded; errors are 1 and invalid input 3", () => {
    for (const c of ["up", "refresh", "destroy"] as const) expect(outcome(c, withChange)).toEqual({ result: "succeeded", exitCode: 0 });
    expect(EXIT.error).toBe(1);
    expect(EXIT.invalid).toBe(3);
  });
});

describe("the plan is rendered for people and for machines", () => {
  const plan = planFromEvents([
    pre("update", "VirtualMachine", "web", { ram: 2048, note: "a" }, { ram: 4096 }),
    pre("replace", "Drive", "web-drive-os", { media: "disk" }, { media: "import" }, { keys: ["media"] }),
    pre("create", "Vnet", "lab", undefined, { name: "lab", description: "x".repeat(300) }),
    diag("info", "vplatform: ram 2048 → 4096 needs a power cycle of VM 'web': the VM will be RESTARTED"),
  ]);
  const report: Report = { command: "preview", stack: "dev", file: "environments/dev.yaml", result: "changes", exitCode: 0, plan };

  test("text: a summary line, one line per resource with its fields, the replace reason and the warnings", () => {
    const text = renderText(report);
    expect(text).toContain("vplatform env preview: stack 'dev', environments/dev.yaml");
    expect(text).toContain("Plan: 1 to create, 1 to update, 1 to replace, 0 to delete, 0 unchanged");
    expect(text).toMatch(/~ +update +VirtualMachine 'web'\n +note: "a" → \(unset\)\n +ram: 2048 → 4096/);
    expect(text).toMatch(/\+- replace Drive 'web-drive-os' +\(replaced because of: media\)/);
    expect(text).toMatch(/\+ +create +Vnet 'lab'/);
    expect(text).toMatch(/Warnings:\n +! vplatform: .*RESTARTED/);
  });

  test("text: long values are cut, a plan without changes says so, drift states the verdict", () => {
    expect(formatField({ field: "d", after: "x".repeat(300) }).length).toBeLessThan(140);
    const empty = planFromEvents([]);
    expect(renderText({ ...report, plan: empty, result: "no-changes" })).toContain("Plan: no changes");
    expect(renderText({ ...report, command: "drift", result: "drift", exitCode: 2 })).toContain(
      "DRIFT: the platform differs from the file (exit 2).",
    );
    expect(renderText({ ...report, command: "drift", plan: empty, result: "no-drift" })).toContain(
      "No drift: the platform matches the file.",
    );
  });

  test("text: a run that failed before planning anything says so, never 'no changes'", () => {
    const failed = renderText({ ...report, plan: { ...planFromEvents([]), errors: ["boom"] }, result: "failed", exitCode: 1 });
    expect(failed).toContain("Plan: FAILED (see Errors)\n");
    expect(failed).not.toContain("no changes");
    expect(failed).toMatch(/Errors:\n +x boom\n\nFAILED \(exit 1\)/);
  });

  test("text: a run that failed with no error message says where to look, not 'see Errors' above nothing", () => {
    const failed = renderText({ ...report, plan: planFromEvents([]), result: "failed", exitCode: 1 });
    expect(failed).toContain("Plan: FAILED (no error message reached the report: see the log on stderr)\n");
    expect(failed).not.toMatch(/see Errors|Errors:/);
  });

  test("text: an up that failed does not open with what it applied, but with the failure and what it planned", () => {
    const failed = renderText({ ...report, command: "up", plan: { ...plan, errors: ["refused"] }, result: "failed", exitCode: 1 });
    expect(failed).toContain("Applied: FAILED (see Errors); planned: 1 to create, 1 to update, 1 to replace, 0 to delete, 0 unchanged");
  });

  test("text: bookkeeping-only updates are counted as such, and a drift check says the next up only rewrites them", () => {
    const plan = planFromEvents([
      pre("update", "Nic", "web-nic-0", { powerCyclePolicy: "restart" }, { powerCyclePolicy: "refuse" }),
      pre("update", "Drive", "web-drive-os", { powerCyclePolicy: "restart" }, { powerCyclePolicy: "refuse" }),
      pre("update", "VirtualMachine", "web", { ram: 1 }, { ram: 2 }),
    ]);
    expect(renderText({ ...report, plan })).toContain(
      "Plan: 0 to create, 3 to update (2 of them bookkeeping only), 0 to replace, 0 to delete, 0 unchanged",
    );
    const onlyBookkeeping = { ...plan, changes: plan.changes.slice(0, 2), counts: { ...plan.counts, update: 2 } };
    const drift = renderText({ ...report, command: "drift", plan: onlyBookkeeping, ...outcome("drift", onlyBookkeeping) });
    expect(drift).toContain("Drift (platform vs file): 0 to create, 2 to update (2 of them bookkeeping only)");
    expect(drift.trimEnd().split("\n").pop()).toBe(
      "No drift: the platform matches the file; the next `up` would only rewrite the provider's bookkeeping inputs in the state.",
    );
  });

  test("text: a drift check that failed gives no verdict", () => {
    const text = renderText({
      ...report,
      command: "drift",
      result: "failed",
      exitCode: EXIT.error,
      plan: planFromEvents([diag("error", "boom")]),
    });
    expect(text).not.toMatch(/No drift|DRIFT/);
    expect(text).toContain("FAILED (exit 1)");
  });

  test("JSON: the whole report, parseable, with every changed field and the warnings", () => {
    const parsed = JSON.parse(renderJson(report));
    expect(parsed).toMatchObject({ command: "preview", stack: "dev", result: "changes", exitCode: 0 });
    expect(parsed.plan.changes.map((c: { action: string; name: string }) => `${c.action} ${c.name}`)).toEqual([
      "update web",
      "replace web-drive-os",
      "create lab",
    ]);
    expect(parsed.plan.changes[0].fields).toEqual([
      { field: "note", before: "a" },
      { field: "ram", before: 2048, after: 4096 },
    ]);
    expect(parsed.plan.warnings).toHaveLength(1);
  });
});

describe("sizes in the plan carry units, so 20GB (decimal) is told apart from 20GiB", () => {
  test("bytes are followed by the decimal and the binary size", () => {
    expect(withUnits(20_000_000_000)).toBe("20000000000 (20 GB = 18.63 GiB)");
    expect(withUnits(20 * 2 ** 30)).toBe("21474836480 (21.47 GB = 20 GiB)");
    expect(withUnits(512)).toBe("512 B");
  });

  test("a disksize change shows both sides with units; other numbers stay plain", () => {
    expect(formatField({ field: "disksize", before: 10 * 2 ** 30, after: 20_000_000_000 })).toBe(
      "disksize: 10737418240 (10.74 GB = 10 GiB) → 20000000000 (20 GB = 18.63 GiB)",
    );
    expect(formatField({ field: "disksize", after: 20 * 2 ** 30 })).toBe("disksize: 21474836480 (21.47 GB = 20 GiB)");
    expect(formatField({ field: "ram", before: 2048, after: 4096 })).toBe("ram: 2048 → 4096");
  });
});

describe("a lab's calendar in the plan", () => {
  test("the line the lab logs at preview is the plan's Calendar section, not a warning", () => {
    const line =
      "vplatform: lab 'course' calendar: next start Mon 2027-01-11 09:00 Europe/Paris (08:00 UTC); next stop Mon 2027-01-11 11:00 Europe/Paris (10:00 UTC)";
    const plan = planFromEvents([diag("info", `${line}\n`), diag("info", `${line}\n`)]);
    expect(plan.calendar).toEqual([line.replace("vplatform: ", "")]);
    expect(plan.warnings).toEqual([]);
    const text = renderText({ command: "preview", stack: "dev", file: "dev.yaml", result: "no-changes", exitCode: 0, plan });
    expect(text).toContain(`\nCalendar:\n  ${line.replace("vplatform: ", "")}`);
  });
});
