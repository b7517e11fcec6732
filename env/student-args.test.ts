import { DEFAULT_STUDENT_SNAPSHOT, parseStudentArgs, STUDENT_USAGE } from "./student-args";

describe("vplatform student: the arguments", () => {
  test("reset with the defaults: the `start` snapshot, the endpoint from the environment", () => {
    expect(parseStudentArgs(["reset"])).toEqual({ ok: true, args: { command: "reset", snapshot: DEFAULT_STUDENT_SNAPSHOT, json: false } });
  });
  test("--endpoint, --snapshot and --json", () => {
    expect(parseStudentArgs(["reset", "--endpoint", "https://lab.example", "--snapshot", "week2", "--json"])).toEqual({
      ok: true,
      args: { command: "reset", endpoint: "https://lab.example", snapshot: "week2", json: true },
    });
  });
  test.each([
    [[], "missing command"],
    [["restore"], "unknown command 'restore' (one of reset)"],
    [["reset", "class.yaml"], "unexpected argument 'class.yaml'"],
    [["reset", "--snapshot", ""], "--snapshot needs a snapshot's name"],
  ])("%j is refused: %s", (argv, message) => expect(parseStudentArgs(argv)).toEqual({ ok: false, help: false, message }));
  test("a key is never an argument: there is no option for one", () => {
    const parsed = parseStudentArgs(["reset", "--api-key", "vpk_1_x"]);
    expect(parsed.ok).toBe(false);
    expect(STUDENT_USAGE).toMatch(/VPLATFORM_API_KEY=<your key> vplatform student/);
  });
  test("--help prints the usage", () => expect(parseStudentArgs(["--help"])).toEqual({ ok: false, help: true, message: STUDENT_USAGE }));
});
