import { type PendingChanges, type VnetPowerState, planVnetPower } from "./vnetPower";

const NONE: PendingChanges = { rules: false, dns: false, restart: false };
const PENDING: Record<string, PendingChanges> = {
  nothing: NONE,
  rules: { ...NONE, rules: true },
  dns: { ...NONE, dns: true },
  "rules and dns": { ...NONE, rules: true, dns: true },
  restart: { ...NONE, restart: true },
  "restart, rules and dns": { rules: true, dns: true, restart: true },
};
const DECLARED: (VnetPowerState | undefined)[] = ["running", "stopped", undefined];

/** What a running vnet left running needs: a restart applies everything; else one apply per kind of change. */
function appliesFor(p: PendingChanges): string[] {
  if (p.restart) return ["restart"];
  return [...(p.rules ? ["applyRules"] : []), ...(p.dns ? ["applyDns"] : [])];
}

function expected(declared: VnetPowerState | undefined, running: boolean, pending: PendingChanges): string[] {
  if (declared === "running" && !running) return ["powerOn"]; // poweron with params.apply applies every pending change
  if (declared === "stopped" && running) return ["powerOff"]; // pending changes wait for the next start
  return running ? appliesFor(pending) : [];
}

describe("planVnetPower: declared × found running or stopped × pending changes (every combination)", () => {
  const cases = DECLARED.flatMap((declared) =>
    [true, false].flatMap((running) => Object.entries(PENDING).map(([name, pending]) => [declared, running, name, pending] as const)),
  );
  test.each(cases)("declared %s, found running %s, pending %s", (declared, running, _name, pending) => {
    expect(planVnetPower(declared, { running, pending }).map((s) => s.kind)).toEqual(expected(declared, running, pending));
  });
});

describe("the rules the table above follows", () => {
  test("a stopped vnet declared running is powered on once, whatever is pending", () => {
    for (const pending of Object.values(PENDING))
      expect(planVnetPower("running", { running: false, pending })).toEqual([
        { kind: "powerOn", reason: expect.stringMatching(/powerState is running/) },
      ]);
  });
  test("undeclared power is never switched: a stopped vnet is left alone, a running one only gets its pending changes applied", () => {
    for (const pending of Object.values(PENDING)) {
      expect(planVnetPower(undefined, { running: false, pending })).toEqual([]);
      expect(planVnetPower(undefined, { running: true, pending }).map((s) => s.kind)).not.toContain("powerOff");
    }
  });
  test("a restart is the only step when one is needed (reset with params.apply applies the rules too)", () => {
    expect(planVnetPower("running", { running: true, pending: PENDING["restart, rules and dns"] }).map((s) => s.kind)).toEqual(["restart"]);
  });
  test("each step says why, naming the platform's flag", () => {
    expect(planVnetPower("running", { running: true, pending: PENDING["rules and dns"] }).map((s) => s.reason)).toEqual([
      expect.stringMatching(/need_fw_apply/),
      expect.stringMatching(/need_dns_apply/),
    ]);
  });
});
