import { progressRows, withoutStaleProgress } from "./progress-rows";

const TYPE = "pulumi-nodejs:dynamic/vplatform:VmPower";
const WAITING = "vplatform: waiting for VM 'web' to reach running (0s/60s, status starting)";

describe("a finished row shows its outcome alone, not its last progress line", () => {
  test.each(["created (2s)", "created (0.06s)", "updated (12s)", "deleted (1s)", "created replacement (3s)", "read (0.10s)"])(
    "%s: the waiting message is dropped",
    (done) => {
      expect(withoutStaleProgress(` +  ${TYPE} web-power ${done} ${WAITING}`)).toBe(` +  ${TYPE} web-power ${done}`);
    },
  );

  test("a row still in progress keeps its progress", () => {
    const line = ` +  ${TYPE} web-power creating (0s) ${WAITING}`;
    expect(withoutStaleProgress(line)).toBe(line);
  });

  test("a failed row keeps its message, progress or not", () => {
    const line = ` +  ${TYPE} web-power creating failed (60s) ${WAITING}`;
    expect(withoutStaleProgress(line)).toBe(line);
  });

  test("a finished row's other messages (a warning, an error) stay: they are news, not progress", () => {
    const line = ` +  ${TYPE} web-power created (2s) warning: vplatform: the platform answered 429 (rate limit)`;
    expect(withoutStaleProgress(line)).toBe(line);
  });

  test("lines that are not rows pass unchanged, even when they quote a waiting message", () => {
    for (const line of ["@ updating.....", "Resources:", `    ${WAITING}`, ""]) expect(withoutStaleProgress(line)).toBe(line);
  });
});

describe("the engine's output is passed on line by line", () => {
  test("a row split across chunks is cleaned once whole; end() passes on an unfinished last line", () => {
    const out: string[] = [];
    const rows = progressRows((text) => out.push(text));
    rows.write(` +  ${TYPE} web-power created (2s) vplat`);
    expect(out).toEqual([]);
    rows.write(`form: waiting for VM 'web' to reach running (0s/60s, status starting)\n +  pulumi:pulumi:Stack lab created (3s) \n@ upd`);
    rows.end();
    expect(out.join("")).toBe(` +  ${TYPE} web-power created (2s)\n +  pulumi:pulumi:Stack lab created (3s) \n@ upd`);
  });
});
