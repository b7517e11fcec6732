import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { parseCliArgs } from "./cli-args";
import { loadEnvironment } from "./load-environment";

const example = path.join(__dirname, "..", "examples", "gitops");
const workflow = parse(fs.readFileSync(path.join(example, ".github", "workflows", "environments.yml"), "utf8"));

interface Job {
  if: string;
  strategy: { matrix: { stack: string[] } };
  steps: { run?: string; uses?: string }[];
}

/** The `vplatform env ...` commands a job runs, once per stack of its matrix. */
function commandsOf(job: Job): string[][] {
  const lines = job.steps.flatMap((s) => (s.run ?? "").split("\n")).filter((l) => /\bnpx vplatform env\b/.test(l));
  return job.strategy.matrix.stack.flatMap((stack) =>
    lines.map((line) => {
      const words = line.replaceAll("${{ matrix.stack }}", stack).split(">")[0].trim().split(/\s+/).map((w) => w.replace(/^"|"$/g, ""));
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
      expect(runs).toContain("get.pulumi.com");
      expect(runs).toMatch(/^npm ci$/m);
    }
    expect(workflow.on).toHaveProperty("pull_request");
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.env.VPLATFORM_API_KEY).toBe("${{ secrets.VPLATFORM_API_KEY }}");
    expect(JSON.parse(fs.readFileSync(path.join(example, "package.json"), "utf8")).dependencies).toHaveProperty("vplatform");
  });
});
