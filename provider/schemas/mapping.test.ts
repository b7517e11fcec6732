// Generated from the shapes' metadata, so a new field is covered the day it is added:
// every mapped field goes out in its API representation and every representation the
// API may send back reads as the declared input (no perpetual diff).
import { apiBodyOf, fieldMeta, inputsFromApiRow, type ApiKind, type Shape } from "./common";
import { deviceShape } from "../resources/device/schema";
import { driveShape } from "../resources/drive/schema";
import { nicShape } from "../resources/nic/schema";
import { cloneFromShape, virtualMachineShape } from "../resources/virtualMachine/schema";
import { vmPowerShape } from "../resources/vmPower/schema";
import { vmSnapshotShape } from "../resources/vmSnapshot/schema";
import { vnetShape } from "../resources/vnet/schema";

const shapes: Record<string, Shape> = {
  VirtualMachine: virtualMachineShape,
  cloneFrom: cloneFromShape,
  Drive: driveShape,
  Nic: nicShape,
  Device: deviceShape,
  Vnet: vnetShape,
  VmSnapshot: vmSnapshotShape,
  VmPower: vmPowerShape,
};

/** A declared value, what the body must carry, and every form the API may answer with. */
const samples: Record<ApiKind, { input: unknown; body: unknown; answers: unknown[] }> = {
  string: { input: "x-1", body: "x-1", answers: ["x-1"] },
  int: { input: 42, body: 42, answers: [42, "42"] },
  bool: { input: true, body: true, answers: [true, "true", 1] },
  stringBool: { input: true, body: "true", answers: ["true", true, 1] },
  key: { input: "7", body: "7", answers: [7, "7"] },
  stringInt: { input: 3, body: "3", answers: ["3", 3] },
  json: { input: { a: [1, "b"] }, body: { a: [1, "b"] }, answers: [{ a: [1, "b"] }] },
};

const mappedFields = Object.entries(shapes).flatMap(([resource, shape]) =>
  Object.entries(shape).flatMap(([field, schema]) => {
    const meta = fieldMeta(schema);
    return meta?.api ? [{ resource, shape, field, api: meta.api, kind: (meta.kind ?? "string") as ApiKind, compare: meta.compare }] : [];
  }),
);

describe("every mapped field", () => {
  test.each(mappedFields.map((f) => [`${f.resource}.${f.field}`, f]))("%s goes out in the API's representation", (_name, f) => {
    const { input, body } = samples[f.kind];
    expect(apiBodyOf(f.shape, { [f.field]: input })).toEqual({ [f.api]: body });
  });

  test.each(mappedFields.map((f) => [`${f.resource}.${f.field}`, f]))(
    "%s reads back as declared from every form the API answers with",
    (_name, f) => {
      const { input, answers } = samples[f.kind];
      for (const answer of answers)
        expect(inputsFromApiRow(f.shape, { [f.api]: answer }, { [f.field]: input })).toEqual({ [f.field]: input });
    },
  );

  test("MAC addresses compare case-insensitively", () => {
    expect(inputsFromApiRow(nicShape, { macaddress: "52:54:00:AB:CD:EF" })).toEqual({ macaddress: "52:54:00:ab:cd:ef" });
  });

  test("a field absent from the row or null is not read back (the platform's business)", () => {
    expect(inputsFromApiRow(virtualMachineShape, { ram: null }, { ram: 1024 })).toEqual({});
    expect(inputsFromApiRow(virtualMachineShape, {}, { ram: 1024 })).toEqual({});
  });
});

describe("every input of every resource", () => {
  const inputs = Object.entries(shapes).flatMap(([resource, shape]) =>
    Object.entries(shape).map(([field, schema]) => [`${resource}.${field}`, fieldMeta(schema)] as const),
  );
  test.each(inputs)("%s has a description (schema.json and docs/resources.md show it)", (_name, meta) => {
    expect(meta?.description?.trim().length ?? 0).toBeGreaterThan(0);
  });
  test("provider-only (control) inputs have no API name, so they are never sent", () => {
    const control = inputs.filter(([, meta]) => meta?.onChange === "control");
    expect(control.map(([name]) => name)).toEqual(
      expect.arrayContaining(["VirtualMachine.timeouts", "VirtualMachine.adopt", "VirtualMachine.powerCyclePolicy"]),
    );
    expect(control.filter(([, meta]) => meta?.api !== undefined)).toEqual([]);
  });
});
