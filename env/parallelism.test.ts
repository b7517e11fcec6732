import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseCliArgs } from "./cli-args";
import { defaultParallelism, vmsListed } from "./parallelism";
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
      expect(parallelismFor(args(["up", "lab.yaml", "--stack", "dev"]), { vnets: [], vms: [] }, dir)).toBe(32);
      expect(parallelismFor(args(["destroy", "broken.yaml", "--stack", "dev"]), undefined, dir)).toBe(32);
      expect(parallelismFor(args(["destroy", "gone.yaml", "--stack", "dev"]), undefined, dir)).toBe(32);
      expect(parallelismFor(args(["up", "lab.yaml", "--stack", "dev", "--parallel", "5"]), undefined, dir)).toBe(5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
