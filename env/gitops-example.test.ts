import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { parseCliArgs } from "./cli-args";
import { loadEnvironment } from "./load-environment";

const example = path.join(__dirname, "..", "examples", "gitops");
const workflow = parse(fs.readFileSync(path.join(example, ".github", "workflows", "environments.yml"), "utf8"));

interface Job {
  if: string;
  strategy: { matrix: { stack: string[] } };
  steps: { run?: string; uses?: string; with?: Record<string, string> }[];
}

/** The `vplatform env ...` commands a job runs, once per stack of its matrix. */
function commandsOf(job: Job): string[][] {
  // A command continued on the next line (`\` at the end) is one command.
  const lines = job.steps.flatMap((s) => (s.run ?? "").replace(/\\\n\s*/g, "").split("\n")).filter((l) => /\bnpx vplatform env\b/.test(l));
  return job.strategy.matrix.stack.flatMap((stack) =>
    lines.map((line) => {
      const words = line
        .replaceAll("${{ matrix.stack }}", stack)
        .split(">")[0]
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/^"|"$/g, ""));
      return words.slice(words.indexOf("env") + 1);
    }),
  );
}

describe("the GitOps example", () => {
  test("every environment file is valid", () => {
    const files = fs.readdirSync(path.join(example, "environments"));
    expect(files.sort()).toEqual(["dev.yaml", "prod.yaml", "staging.yaml"]);
    for (const f of files) expect(loadEnvironment(path.join(example, "environments", f)).vms.length).toBeGreaterThan(0);
  });

  test.each([
    ["plan", "pull_request", "preview"],
    ["up", "push", "up"],
    ["drift", "schedule", "drift"],
  ])("job %s runs on %s and gives `vplatform env %s` an existing file and its stack", (name, event, command) => {
    const job: Job = workflow.jobs[name];
    expect(job.if).toContain(`github.event_name == '${event}'`);
    const commands = commandsOf(job);
    expect(commands).toHaveLength(3);
    for (const argv of commands) {
      const parsed = parseCliArgs(argv);
      if (!parsed.ok) throw new Error(`${argv.join(" ")}: ${parsed.message}`);
      expect(parsed.args.command).toBe(command);
      expect(path.basename(parsed.args.file)).toBe(`${parsed.args.stack}.yaml`);
      expect(fs.existsSync(path.join(example, parsed.args.file))).toBe(true);
    }
  });

  test("the workflow installs the stock Pulumi CLI and the package from the lock file, and takes credentials from secrets", () => {
    for (const name of ["plan", "up", "drift"]) {
      const runs = (workflow.jobs[name] as Job).steps.map((s) => s.run ?? "").join("\n");
      expect(runs).toMatch(/^npm ci$/m);
    }
    expect(workflow.on).toHaveProperty("pull_request");
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.env.VPLATFORM_API_KEY).toBe("${{ secrets.VPLATFORM_API_KEY }}");
    // A backend URL carries its password: a secret, masked in logs, not a variable.
    expect(workflow.env.PULUMI_BACKEND_URL).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
  });

  test.each(["plan", "up"])("job %s runs the package's policy pack", (name) => {
    for (const argv of commandsOf(workflow.jobs[name] as Job)) {
      const parsed = parseCliArgs(argv);
      if (!parsed.ok) throw new Error(parsed.message);
      expect(parsed.args.policyPack).toBe("node_modules/vplatform/policy");
    }
  });
});

describe("the GitOps example installs on a fresh runner", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(example, "package.json"), "utf8"));
  const lock = JSON.parse(fs.readFileSync(path.join(example, "package-lock.json"), "utf8"));

  test("vplatform comes from the vendored release tarball, not from the registry where it is not published", () => {
    expect(manifest.dependencies.vplatform).toMatch(/^file:vendor\/vplatform-\d+\.\d+\.\d+\.tgz$/);
  });

  test("the lock file is committed and agrees with package.json (npm ci refuses otherwise)", () => {
    expect(lock.packages[""].dependencies).toEqual(manifest.dependencies);
    for (const [name, spec] of Object.entries(manifest.dependencies as Record<string, string>)) {
      const locked = lock.packages[`node_modules/${name}`];
      expect(locked).toBeDefined();
      if (spec.startsWith("file:")) expect(locked.resolved).toBe(spec);
      else expect(locked.version).toBe(spec);
    }
  });

  test("vplatform is this release's tarball, vendor/vplatform-<version of this package>.tgz", () => {
    const release = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).version;
    expect(manifest.dependencies.vplatform).toBe(`file:vendor/vplatform-${release}.tgz`);
  });

  test("the lock holds this release's own dependencies, optional ones included (npm ci installs the lock, not the tarball's package.json)", () => {
    const release = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    const locked = lock.packages["node_modules/vplatform"];
    expect(locked.dependencies).toEqual(release.dependencies);
    expect(locked.optionalDependencies).toEqual(release.optionalDependencies);
    for (const name of [...Object.keys(release.dependencies), ...Object.keys(release.optionalDependencies)])
      expect(lock.packages[`node_modules/${name}`]).toBeDefined();
  });

  test("the lock pins no hash of the vendored tarball: npm refuses every other build of it (EINTEGRITY), and git pins the committed one", () => {
    expect(lock.packages["node_modules/vplatform"]).not.toHaveProperty("integrity");
  });

  test("every job installs the Pulumi CLI with the official action, pinned to the locked @pulumi/pulumi, never by curl | sh", () => {
    const pinned = lock.packages["node_modules/@pulumi/pulumi"].version;
    for (const name of ["plan", "up", "drift"]) {
      const steps = (workflow.jobs[name] as Job).steps;
      const setup = steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
      expect(setup).toHaveLength(1);
      expect(setup[0].with).toEqual({ "pulumi-version": pinned });
      expect(steps.map((s) => s.run ?? "").join("\n")).not.toMatch(/curl[^\n]*\|\s*(ba)?sh/);
    }
  });

  test("every run step is under bash with pipefail (a failing command in a pipe fails the step)", () => {
    expect(workflow.defaults.run.shell).toBe("bash");
  });

  test(".gitignore leaves out node_modules and the local state of trying it out", () => {
    const ignored = fs.readFileSync(path.join(example, ".gitignore"), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["node_modules/", ".vplatform/"]));
  });
});
