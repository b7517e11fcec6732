import { z } from "zod";
import { EnvironmentError } from "./environment-error";
import { parseYamlSource, validateYamlSource } from "./yaml-source";

const schema = z.strictObject({
  vms: z.array(z.strictObject({ name: z.string(), ram: z.number().int().min(512) })),
});

function problemsOf(text: string) {
  try {
    validateYamlSource(parseYamlSource(text, "lab.yaml"), schema);
  } catch (e) {
    if (e instanceof EnvironmentError) return e.problems;
    throw e;
  }
  throw new Error("expected an EnvironmentError");
}

describe("environment files report problems at file:line:col", () => {
  test("a value failing validation points at the value", () => {
    const [p] = problemsOf("vms:\n  - name: web\n    ram: 128\n");
    expect(p.location).toEqual({ file: "lab.yaml", line: 3, col: 10 });
    expect(p.path).toBe("vms[0].ram");
    expect(p.message).toMatch(/512/);
  });

  test("a missing required field points at the object that lacks it", () => {
    const p = problemsOf("vms:\n  - name: web\n    ram: 1024\n  - ram: 1024\n").find((x) => x.path === "vms[1].name");
    expect(p).toBeDefined();
    if (!p) return;
    expect(p.location.line).toBe(4);
    expect(p.location.col).toBe(5);
  });

  test("an unknown field is reported at the object holding it", () => {
    const [p] = problemsOf("vms:\n  - name: web\n    ram: 1024\n    cpus: 2\n");
    expect(p.message).toMatch(/cpus/);
    expect(p.location.line).toBe(2);
  });

  test("a YAML syntax error is reported with its position", () => {
    expect(() => parseYamlSource("vms:\n  - name: [web\n", "bad.yaml")).toThrow(/^bad\.yaml:\d+:\d+: /);
  });

  test("a key given twice in one mapping is named with its path, line and column", () => {
    const problems = (() => {
      try {
        parseYamlSource("vms:\n  - name: web\n    ram: 1024\n    ram: 2048\n", "dup.yaml");
      } catch (e) {
        return (e as EnvironmentError).problems;
      }
    })();
    expect(problems).toEqual([
      {
        location: { file: "dup.yaml", line: 4, col: 5 },
        path: "vms[0].ram",
        message: expect.stringMatching(/'ram' appears twice in this mapping; keys must be unique/),
      },
    ]);
  });

  test("the message of the error lists every problem, one per line", () => {
    try {
      validateYamlSource(parseYamlSource("vms:\n  - name: 1\n    ram: 1\n", "x.yaml"), schema);
      throw new Error("not thrown");
    } catch (e) {
      expect((e as Error).message.split("\n")).toHaveLength(2);
      expect((e as Error).message).toMatch(/^x\.yaml:2:11: vms\[0\]\.name: /m);
    }
  });

  test("a valid file yields the parsed value", () => {
    const v = validateYamlSource(parseYamlSource("vms:\n  - name: web\n    ram: 2048\n", "ok.yaml"), schema);
    expect(v).toEqual({ vms: [{ name: "web", ram: 2048 }] });
  });
});
