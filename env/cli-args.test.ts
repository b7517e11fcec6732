import { COMMANDS, DEFAULT_PROJECT, OPTIONS, type OptionName, parseCliArgs, spec, USAGE } from "./cli-args";

const ok = (argv: string[]) => {
  const r = parseCliArgs(argv);
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.args;
};
const refused = (argv: string[]) => {
  const r = parseCliArgs(argv);
  if (r.ok) throw new Error("expected a refusal");
  return r.message;
};

describe("vplatform env arguments", () => {
  test("a command, a file and a stack, with defaults for the rest", () => {
    expect(ok(["preview", "environments/dev.yaml", "--stack", "dev"])).toEqual({
      command: "preview",
      file: "environments/dev.yaml",
      stack: "dev",
      project: DEFAULT_PROJECT,
      json: false,
      refresh: true,
      waitForLock: 0,
      markdown: false,
    });
  });

  test("the parallelism is derived from the file unless given", () => {
    expect(ok(["up", "f.yaml", "--stack=prod"]).parallel).toBeUndefined();
    expect(ok(["up", "f.yaml", "--stack=prod", "--parallel", "8"]).parallel).toBe(8);
    expect(ok(["up", "f.yaml", "-s", "prod", "-p", "64"]).parallel).toBe(64);
  });

  test("options may come before the positionals", () => {
    expect(ok(["--json", "--stack", "s", "drift", "f.yaml"])).toMatchObject({ command: "drift", file: "f.yaml", json: true });
  });

  test("--no-refresh turns off up's refresh and belongs to up alone", () => {
    expect(ok(["up", "f.yaml", "--stack", "s", "--no-refresh"]).refresh).toBe(false);
    expect(refused(["preview", "f.yaml", "--stack", "s", "--no-refresh"])).toMatch(/--no-refresh applies to up only/);
  });

  test("--wait-for-lock takes whole seconds", () => {
    expect(ok(["up", "f.yaml", "--stack", "s", "--wait-for-lock", "300"]).waitForLock).toBe(300);
    expect(refused(["up", "f.yaml", "--stack", "s", "--wait-for-lock", "soon"])).toMatch(
      /--wait-for-lock needs whole seconds \(0 or more\), got 'soon'/,
    );
  });

  test("--markdown belongs to the commands that print a plan or a roster, and excludes --json", () => {
    expect(ok(["preview", "f.yaml", "--stack", "s", "--markdown"]).markdown).toBe(true);
    expect(refused(["up", "f.yaml", "--stack", "s", "--markdown"])).toMatch(/--markdown applies to preview, drift and roster/);
    expect(refused(["preview", "f.yaml", "--stack", "s", "--markdown", "--json"])).toBe("give one of --json, --markdown, not several");
  });

  test("--policy-pack (and its config) for the commands that run the program", () => {
    expect(
      ok(["preview", "f.yaml", "--stack", "s", "--policy-pack", "node_modules/vplatform/policy", "--policy-pack-config", "p.json"]),
    ).toMatchObject({
      policyPack: "node_modules/vplatform/policy",
      policyPackConfig: "p.json",
    });
    expect(refused(["destroy", "f.yaml", "--stack", "s", "--policy-pack", "p"])).toMatch(/--policy-pack applies to preview, drift and up/);
    expect(refused(["up", "f.yaml", "--stack", "s", "--policy-pack-config", "p.json"])).toMatch(/--policy-pack-config needs --policy-pack/);
  });

  test.each([
    [[], /missing command/],
    [["apply", "f.yaml", "--stack", "s"], /unknown command 'apply'/],
    [["up", "--stack", "s"], /needs the environment file/],
    [["up", "f.yaml"], /--stack <name> is required/],
    [["up", "f.yaml", "g.yaml", "--stack", "s"], /unexpected argument 'g\.yaml'/],
    [["up", "f.yaml", "--stack", "s", "--parallel", "0"], /--parallel needs a positive whole number, got '0'/],
    [["up", "f.yaml", "--stack", "s", "--parallel", "many"], /--parallel needs a positive whole number/],
    [["up", "f.yaml", "--stack", "s", "--colour"], /--colour/],
  ])("%j is refused with a message that says what is wrong", (argv, message) => {
    expect(refused(argv as string[])).toMatch(message);
  });

  test("--help asks for the usage, which lists every command and the exit codes", () => {
    const r = parseCliArgs(["--help"]);
    expect(r).toMatchObject({ ok: false, help: true });
    if (r.ok) return;
    for (const word of ["preview", "up", "refresh", "destroy", "drift", "exit codes", "PULUMI_BACKEND_URL", "VPLATFORM_ENDPOINT"])
      expect(r.message).toContain(word);
    expect(r.message).toContain("--parallel <n>     resource operations at once; reset: VMs reset at once (default: 4 per VM of the");
  });

  describe("outputs: the stack's outputs, secrets masked unless --show-secrets", () => {
    test("takes the file and --stack, and --show-secrets", () => {
      expect(ok(["outputs", "environments/dev.yaml", "--stack", "dev"])).toMatchObject({ command: "outputs", stack: "dev" });
      expect(ok(["outputs", "environments/dev.yaml", "--stack", "dev"])).not.toHaveProperty("showSecrets");
      expect(ok(["outputs", "environments/dev.yaml", "--stack", "dev", "--show-secrets"])).toMatchObject({ showSecrets: true });
    });
    test("--show-secrets is refused on the commands that print a plan", () => {
      expect(refused(["up", "f.yaml", "--stack", "s", "--show-secrets"])).toBe("--show-secrets applies to roster and outputs");
    });
  });

  describe("reset and roster: the copies of a lab", () => {
    test("reset takes --copy N or --all; roster every copy unless --copy", () => {
      expect(ok(["reset", "f.yaml", "--stack", "s", "--copy", "3"])).toMatchObject({ command: "reset", copy: 3 });
      expect(ok(["reset", "f.yaml", "--stack", "s", "--all", "--lab", "course"])).toMatchObject({ all: true, lab: "course" });
      expect(ok(["roster", "f.yaml", "--stack", "s"])).not.toHaveProperty("copy");
      expect(ok(["roster", "f.yaml", "--stack", "s", "--csv", "--show-secrets"])).toMatchObject({ csv: true, showSecrets: true });
    });

    test("reset without --copy or --all is refused, saying what it would discard", () => {
      expect(refused(["reset", "f.yaml", "--stack", "s"])).toBe(
        "reset needs --copy <n> (one copy) or --all (every copy of the lab): it discards the students' changes",
      );
      expect(refused(["reset", "f.yaml", "--stack", "s", "--copy", "2", "--all"])).toBe("give --copy <n> or --all, not both");
    });

    test.each(["0", "-1", "two", "1.5"])("--copy %s is refused: copies are numbered from 1", (n) => {
      expect(refused(["reset", "f.yaml", "--stack", "s", `--copy=${n}`])).toBe(`--copy needs a copy number (1 or more), got '${n}'`);
    });

    test.each([
      [["roster", "--all"], "--all applies to reset only"],
      [["reset", "--all", "--csv"], "--csv applies to roster only"],
      [["reset", "--all", "--show-secrets"], "--show-secrets applies to roster and outputs"],
      [["reset", "--all", "--markdown"], "--markdown applies to preview, drift and roster"],
      [["roster", "--csv", "--json"], "give one of --json, --csv, not several"],
      [["up", "--copy", "1"], "--copy applies to reset and roster"],
      [["preview", "--lab", "course"], "--lab applies to reset and roster"],
    ])("%j is refused: %s", ([command, ...flags], message) => {
      expect(refused([command, "f.yaml", "--stack", "s", ...flags])).toBe(message);
    });
  });
});

describe("the declared options are the parser's (one source for the parser, the usage and docs/reference/cli.md)", () => {
  const names = Object.keys(OPTIONS) as OptionName[];
  test.each(names)("--%s is listed in the usage", (name) => {
    expect(USAGE).toMatch(new RegExp(`^  --${name}\\b`, "m"));
  });
  test.each(names.filter((name) => spec(name).commands))("--%s is refused with the commands it was not declared for", (name) => {
    const { commands, type } = spec(name);
    const value = type === "string" ? ["x"] : [];
    for (const command of COMMANDS.filter((c) => !commands?.includes(c)))
      expect(refused([command, "f.yaml", "--stack", "s", `--${name}`, ...value])).toMatch(`--${name} applies to`);
  });
});
