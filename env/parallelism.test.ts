import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseCliArgs } from "./cli-args";
import { defaultParallelism, vmsDeclared, vmsListed } from "./parallelism";
import { parallelismFor } from "./run-command";

describe("the CLI's default parallelism lets a lab's power-ons overlap", () => {
  test("four engine slots per VM of the file, never fewer than 32", () => {
    expect([0, 1, 8, 9, 50, 200].map(defaultParallelism)).toEqual([32, 32, 32, 36, 200, 800]);
  });

  test("counted from the validated environment, else from the file as listed (refresh and destroy), else the floor", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parallelism-"));
    try {
      const lab = `vms:\n${Array.from({ length: 12 }, (_, i) => `  - { name: vm${i} }\n`).join("")}`;
      fs.writeFileSync(path.join(dir, "lab.yaml"), lab);
      fs.writeFileSync(path.join(dir, "broken.yaml"), "vms: [ {name: web\n");
      const args = (argv: string[]) => {
        const r = parseCliArgs(argv);
        if (!r.ok) throw new Error(r.message);
        return r.args;
      };
      expect(vmsListed(path.join(dir, "lab.yaml"))).toBe(12);
      expect(parallelismFor(args(["destroy", "lab.yaml", "--stack", "dev"]), undefined, dir)).toBe(48);
      expect(parallelismFor(args(["up", "lab.yaml", "--stack", "dev"]), { vms: [], labs: [] }, dir)).toBe(32);
      expect(parallelismFor(args(["destroy", "broken.yaml", "--stack", "dev"]), undefined, dir)).toBe(32);
      expect(parallelismFor(args(["destroy", "gone.yaml", "--stack", "dev"]), undefined, dir)).toBe(32);
      expect(parallelismFor(args(["up", "lab.yaml", "--stack", "dev", "--parallel", "5"]), undefined, dir)).toBe(5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a lab's VMs count once per copy: a class of 30 copies × 3 VMs and a golden VM is 91 VMs, as listed and as validated", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parallelism-"));
    try {
      const vm = (name: string) => `      - { name: ${name} }\n`;
      const file = `vms:\n  - { name: golden }\nlabs:\n  - name: course\n    copies: 30\n    vms:\n${vm("web")}${vm("app")}${vm("db")}`;
      fs.writeFileSync(path.join(dir, "class.yaml"), file);
      expect(vmsListed(path.join(dir, "class.yaml"))).toBe(91);
      const r = parseCliArgs(["destroy", "class.yaml", "--stack", "dev"]);
      if (!r.ok) throw new Error(r.message);
      expect(parallelismFor(r.args, undefined, dir)).toBe(defaultParallelism(91));
      const validated = {
        vms: [{}],
        labs: [
          { copies: 30, vms: [{}, {}, {}] },
          { copies: 2, vms: [{}] },
        ],
      };
      expect(vmsDeclared(validated)).toBe(1 + 90 + 2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a lab whose count or VMs are not yet valid counts none (the file's validation names the problem)", () => {
    expect(vmsDeclared({ vms: [{}], labs: [{ copies: "thirty", vms: [{}] }, { copies: 3 }, null] })).toBe(1);
  });
});
