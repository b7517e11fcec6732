// The examples/gitops workflow run for real by scripts/gitops-workflow.sh: the
// packed tarball installed in a fresh directory, then plan, up, drift, an
// outside change, drift, up and destroy, state in PostgreSQL.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { startPostgres, type RunningPostgres } from "./postgres";

let postgres: RunningPostgres;
let work: string;

beforeAll(async () => {
  postgres = await startPostgres();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "gitops-workflow-"));
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const read = (file: string) => fs.readFileSync(path.join(work, file), "utf8");

describe("the GitOps example's workflow, step by step against the emulator and PostgreSQL", () => {
  test("every step ends as the workflow expects, and each leaves what a reviewer or an operator reads", async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const script = path.join(findRepoRoot(), "scripts", "gitops-workflow.sh");
      execFile(
        "bash",
        [script, work],
        { env: { ...process.env, PULUMI_BACKEND_URL: postgres.url }, maxBuffer: 64 << 20 },
        (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    if (run.code !== 0) throw new Error(`gitops-workflow.sh failed (exit ${run.code}):\n${run.stderr.slice(-6000)}`);
    expect(run.stderr).toContain("gitops-workflow: every step passed");

    // The pull-request comment: counts, the table, the diagram with the VM.
    const comment = read("comment.md");
    expect(comment).toMatch(/^### vplatform Plan: stack `dev`, `environments\/dev\.yaml`\n\n\*\*\d+ to create/);
    expect(comment).toContain("| ➕ create | VirtualMachine `shop-dev-web` |");
    expect(comment).toMatch(/```mermaid\nflowchart LR\n[\s\S]*VM shop-dev-web/);
    // The policy pack ran from the installed package: passed on dev, stopped the prod-like stack with the rule's message.
    expect(read("plan-engine.txt")).toMatch(/Policies:\s+✅ vplatform@v/);
    // In the report the workflow posts (stdout), not only in the engine's output.
    expect(read("policy-stopped.md")).toContain(
      "policy prod-vms-refuse-power-cycle (VirtualMachine shop-dev-web): stack 'prod-try' is production (prod*): set powerCyclePolicy: refuse on VM 'shop-dev-web'",
    );
    // The stock CLI, the installed package as its program: no changes after up, the pack run from node_modules.
    expect(read("stock-preview.txt")).toMatch(/Policies:\s+✅ vplatform@v[\s\S]*6 unchanged/);
    expect(read("drift-found.txt")).toMatch(/ram: 4096 → 2048/);
    expect(read("up-again.txt")).toMatch(/Applied: 0 to create, 1 to update/);
    expect(read("destroy.txt")).toMatch(/0 to create, 0 to update, 0 to replace, 5 to delete/);
    // What the workflow prints (the CI log) and leaves (the PR comment, each step's report) never shows the backend's password.
    const outputs = fs.readdirSync(work).filter((f) => /\.(txt|md)$/.test(f));
    expect(outputs).toEqual(expect.arrayContaining(["comment.md", "plan-engine.txt", "drift-found.txt", "destroy.txt"]));
    expect(outputs.filter((f) => read(f).includes(postgres.password))).toEqual([]);
    expect(run.stderr.includes(postgres.password)).toBe(false);
  }, 600_000);
});
