import { diffVnet } from "./resource";

describe("the preview says an MTU change restarts a network only when the network will be running", () => {
  const olds = { name: "lab", network: "10.0.0.0/24", mtu: 1500 };
  test.each([
    ["found running, power not declared", { status: "running" }, {}, true],
    ["found running, declared running", { status: "running", powerState: "running" }, { powerState: "running" }, true],
    [
      "found running, being declared stopped (it stops; the change applies at its next start)",
      { status: "running" },
      { powerState: "stopped" },
      false,
    ],
    ["found stopped", { status: "stopped" }, {}, false],
    ["found stopped, being declared running (the start applies it)", { status: "stopped" }, { powerState: "running" }, false],
    ["never read (a state of the previous release)", {}, {}, false],
  ])("%s", (_case, recorded, declared, warns) => {
    const warnings = diffVnet({ ...olds, ...recorded }, { ...olds, ...declared, mtu: 9000 }).warnings;
    expect(warnings).toEqual(warns ? ["vnet 'lab': mtu 1500 → 9000 RESTARTS the running network: its traffic stops meanwhile"] : []);
  });
});
