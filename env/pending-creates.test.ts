import { ENGINE_PENDING_WARNING, pendingCreates, pendingCreatesLines } from "./pending-creates";

const urn = (name: string) => `urn:pulumi:dev::vplatform-env::pulumi-nodejs:dynamic/vplatform:VirtualMachine::${name}`;
const op = (type: string, name: string) => ({ type, resource: { urn: urn(name) } });

describe("creates a killed run left pending", () => {
  const deployment = {
    resources: [{ urn: urn("web") }, { urn: urn("db") }],
    pending_operations: [op("creating", "web"), op("creating", "gone"), op("deleting", "db")],
  };

  test("after an up, a pending create of a resource the state holds is settled and removed; the others stay", () => {
    const found = pendingCreates(deployment, true);
    expect(found.settled).toEqual([urn("web")]);
    expect(found.unsettled).toEqual([urn("gone")]);
    expect(found.deployment?.pending_operations).toEqual([op("creating", "gone"), op("deleting", "db")]);
    expect(found.deployment?.resources).toBe(deployment.resources);
  });

  test("after a destroy none is settled (the state holds no row they may have made): the state is left as it is", () => {
    const found = pendingCreates(deployment, false);
    expect(found).toEqual({ settled: [], unsettled: [urn("web"), urn("gone")] });
  });

  test("no pending create: nothing to change, nothing to say", () => {
    const found = pendingCreates({ resources: deployment.resources }, true);
    expect(found).toEqual({ settled: [], unsettled: [] });
    expect(pendingCreatesLines(found, "up")).toEqual([]);
  });

  test("the lines name the resources: the settled ones, and the unsettled ones with what takes their rows over", () => {
    const lines = pendingCreatesLines(pendingCreates(deployment, true), "up");
    expect(lines).toEqual([
      "vplatform: 1 create(s) a killed run left pending are settled: this up found the rows they made by their markers, or made them (web)",
      expect.stringMatching(/^vplatform: 1 create\(s\) a killed run left pending are not in the state \(gone\): .*`vplatform env up`/),
    ]);
  });

  test("the engine's own warning about them is recognized (the CLI says its own instead)", () => {
    expect(
      ENGINE_PENDING_WARNING.test(
        "Attempting to deploy or update resources with 11 pending operations from previous deployment.\n  * urn:…, interrupted while creating",
      ),
    ).toBe(true);
  });
});
