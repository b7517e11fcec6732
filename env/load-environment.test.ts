import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { environmentSchema } from "./environment-schema";
import { loadEnvironment } from "./load-environment";
import { EnvironmentError } from "./environment-error";

const examples = path.join(__dirname, "..", "examples", "environments");

/** The schema inside its default or optional. */
const inner = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? inner(schema.unwrap() as z.ZodType) : schema;

/**
 * The fields of `schema` that none of `values` (as written in a file) gives: at any depth of lists of entries (a
 * VM's drives, a key's ipAllowList); a field holding an object (timeouts, cloneFrom) counts once it is given.
 */
function missingFields(schema: z.ZodType, values: unknown[], at: string): string[] {
  const s = inner(schema);
  if (s instanceof z.ZodArray) return missingFields(s.element as z.ZodType, values.flat(), `${at}[]`);
  if (!(s instanceof z.ZodObject)) return [];
  return Object.entries(s.shape as Record<string, z.ZodType>).flatMap(([field, fieldSchema]) => {
    const where = at ? `${at}.${field}` : field;
    const given = values.flatMap((v) => (v !== null && typeof v === "object" && field in v ? [(v as Record<string, unknown>)[field]] : []));
    if (given.length === 0) return [where];
    return inner(fieldSchema) instanceof z.ZodArray ? missingFields(fieldSchema, given, where) : [];
  });
}

function problems(text: string): string[] {
  try {
    loadEnvironment("env.yaml", text);
  } catch (e) {
    if (e instanceof EnvironmentError) return e.message.split("\n");
    throw e;
  }
  throw new Error("expected an EnvironmentError");
}

describe("environment definitions are validated with the provider's own schemas", () => {
  test("the example lab is valid, with sizes in bytes and NICs defaulting to enabled", () => {
    const env = loadEnvironment(path.join(examples, "lab.yaml"));
    expect(env.vnets.map((v) => v.name)).toEqual(["lab"]);
    const db = env.vms.find((v) => v.name === "db")!;
    expect(db.drives.map((d) => d.disksize)).toEqual([20 * 2 ** 30, 50 * 2 ** 30]);
    expect(db.nics[0]).toMatchObject({ vnet: "lab", enabled: true, interface: "virtio" });
  });

  test("the full example gives every list and every field of the environment schema, at any depth of lists", () => {
    const file = path.join(examples, "full.yaml");
    expect(missingFields(environmentSchema, [parse(fs.readFileSync(file, "utf8"))], "")).toEqual([]);
    expect(() => loadEnvironment(file)).not.toThrow();
  });

  test("the finder of missing fields names a list, a field of an entry and a field of a nested list", () => {
    const schema = z.strictObject({
      vms: z.array(z.object({ name: z.string(), drives: z.array(z.object({ size: z.number().optional() })).default([]) })).default([]),
      users: z.array(z.object({ name: z.string(), role: z.string().optional() })).default([]),
    });
    expect(missingFields(schema, [{ vms: [{ drives: [{}] }, { name: "b" }] }], "")).toEqual(["vms[].drives[].size", "users"]);
  });

  test("users and API keys are declared by name: a key's user names a user of the file, an existing user or a key", () => {
    const yaml =
      "users:\n  - name: ci\napiKeys:\n  - name: k\n    user: ci\n  - name: old\n    user: '7'\n  - name: ops\n    user: operator\n";
    expect(loadEnvironment("env.yaml", yaml).apiKeys.map((k) => k.user)).toEqual(["ci", "7", "operator"]);
  });

  test("the keys guide's users-and-keys environment is valid", () => {
    const guide = fs.readFileSync(path.join(__dirname, "..", "docs", "guides", "keys-and-automation.md"), "utf8");
    const section = guide.slice(guide.indexOf("## Users and API keys"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1];
    const env = loadEnvironment("docs/guides/keys-and-automation.md", yaml);
    expect(env.apiKeys).toEqual([expect.objectContaining({ name: "ci", user: "ci", expires: "2031-06-30", rotation: "2026-11" })]);
  });

  test("a key's IP entry that is neither an address nor a CIDR block is refused at its line", () => {
    expect(problems("apiKeys:\n  - name: k\n    ipDenyList:\n      - address: 10.0.0.300\n")).toEqual([
      expect.stringMatching(/^env\.yaml:4:\d+: apiKeys\[0\]\.ipDenyList\[0\]\.address: '10\.0\.0\.300' is neither/),
    ]);
  });

  test("a bound of the VM schema is reported at its line and column", () => {
    expect(problems("vms:\n  - name: web\n    ram: 128\n")).toEqual(["env.yaml:3:10: vms[0].ram: RAM must be at least 512 MB"]);
  });

  test("a drive rule (import needs a mediaSource) applies to nested drives", () => {
    expect(problems("vms:\n  - name: web\n    drives:\n      - media: import\n")).toEqual([
      expect.stringMatching(/^env\.yaml:4:9: vms\[0\]\.drives\[0\]\.mediaSource: media 'import' needs a mediaSource/),
    ]);
  });

  test("a vnet's DHCP range must lie inside its network", () => {
    const text = "vnets:\n  - name: n\n    network: 10.0.0.0/24\n    dhcpStart: 10.0.1.5\n    dhcpStop: 10.0.0.9\n";
    expect(problems(text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/env\.yaml:4:16: vnets\[0\]\.dhcpStart: 10\.0\.1\.5 is outside/)]),
    );
  });

  test("names must be unique and clone references must not form a cycle", () => {
    const text = "vms:\n  - name: a\n    cloneFrom: { vm: b }\n  - name: b\n    cloneFrom: { vm: a }\n  - name: a\n";
    const found = problems(text).join("\n");
    expect(found).toMatch(/vms\[2\]\.name: VM name 'a' is declared twice/);
    expect(found).toMatch(/vms: cloneFrom references form a cycle/);
  });

  test("hardware nested under a VM cannot name a machine of its own", () => {
    expect(problems("vms:\n  - name: web\n    nics:\n      - vnet: lab\n        machine: 5\n")[0]).toMatch(/vms\[0\]\.nics\[0\].*machine/);
  });

  test("sizes take units", () => {
    const env = loadEnvironment("s.yaml", "vms:\n  - name: w\n    drives:\n      - disksize: 512MiB\n      - disksize: 1.5GB\n");
    expect(env.vms[0].drives.map((d) => d.disksize)).toEqual([512 * 2 ** 20, 1.5e9]);
  });

  test("a size below the smallest drive (1 MiB) is refused at its line, with how to write the size meant", () => {
    expect(problems("vms:\n  - name: w\n    drives:\n      - disksize: 20\n")).toEqual([
      "env.yaml:4:19: vms[0].drives[0].disksize: 20 is 20 bytes, below the smallest drive (1 MiB); for 20 GiB write '20GiB'",
    ]);
    expect(problems("vms:\n  - name: w\n    drives:\n      - disksize: 512KiB\n")).toEqual([
      "env.yaml:4:19: vms[0].drives[0].disksize: 524288 is 524288 bytes (512 KiB), below the smallest drive (1 MiB)",
    ]);
    expect(loadEnvironment("s.yaml", "vms:\n  - name: w\n    drives:\n      - disksize: 1MiB\n").vms[0].drives[0].disksize).toBe(2 ** 20);
  });
});

describe("one file for several stacks: per-stack overlays under `stacks`", () => {
  const file = [
    "vnets:",
    "  - name: lab",
    "    network: 10.20.0.0/24",
    "vms:",
    "  - name: web",
    "    cpuCores: 2",
    "    ram: 2048",
    "    drives:",
    "      - { name: os, disksize: 20GiB }",
    "stacks:",
    "  prod:",
    "    vnets:",
    "      lab: { network: 10.90.0.0/24 }",
    "    vms:",
    "      web:",
    "        ram: 16384",
    "        drives:",
    "          - { name: os, disksize: 100GiB }",
    "  staging:",
    "    vms:",
    "      web: { cpuCores: 4 }",
    "",
  ].join("\n");

  test("the selected stack's fields replace the declared ones; other fields stay", () => {
    const prod = loadEnvironment("env.yaml", file, "prod");
    expect(prod.vnets[0].network).toBe("10.90.0.0/24");
    expect(prod.vms[0]).toMatchObject({ name: "web", cpuCores: 2, ram: 16384 });
    expect(prod.vms[0].drives.map((d) => d.disksize)).toEqual([100 * 2 ** 30]);
    expect(loadEnvironment("env.yaml", file, "staging").vms[0]).toMatchObject({ cpuCores: 4, ram: 2048 });
  });

  test("a stack without an overlay, or no stack, gets the file as declared", () => {
    for (const stack of ["dev", undefined]) {
      const env = loadEnvironment("env.yaml", file, stack);
      expect(env.vms[0]).toMatchObject({ cpuCores: 2, ram: 2048 });
      expect(env.vnets[0].network).toBe("10.20.0.0/24");
    }
  });

  test("an invalid overridden value is reported at the overlay's line", () => {
    const bad = file.replace("ram: 16384", "ram: 100");
    expect(() => loadEnvironment("env.yaml", bad, "prod")).toThrow(/^env\.yaml:16:14: vms\[0\]\.ram: RAM must be at least 512 MB$/);
  });

  test("every stack's overlay must name declared entries, whichever stack is selected", () => {
    const typo = file.replace("web: { cpuCores: 4 }", "wbe: { cpuCores: 4 }");
    expect(problems(typo)).toEqual(["env.yaml:21:7: stacks.staging.vms.wbe: no VM named 'wbe' is declared in vms to override"]);
  });

  test("an overlay overrides vnets, vms or labs only, field maps only, and cannot rename", () => {
    expect(problems("vms: [{ name: a }]\nstacks:\n  p:\n    drives: {}\n")).toEqual([
      "env.yaml:4:5: stacks.p.drives: an overlay overrides vnets, vms or labs, not 'drives'",
    ]);
    expect(problems("vms: [{ name: a }]\nstacks:\n  p:\n    vms: [a]\n")[0]).toMatch(
      /^env\.yaml:4:10: stacks\.p\.vms: a map of VM name → fields/,
    );
    expect(problems("vms: [{ name: a }]\nstacks:\n  p:\n    vms: { a: { name: b } }\n")[0]).toMatch(
      /stacks\.p\.vms\.a\.name: an overlay cannot rename/,
    );
    expect(problems("vms: [{ name: a }]\nstacks: [p]\n")[0]).toMatch(/^env\.yaml:2:9: stacks: a map of stack name/);
  });
});

describe("webhooks, tasks, event triggers and schedules are declared by name", () => {
  const automation = [
    "vms:",
    "  - name: web",
    "webhooks:",
    "  - name: alerts",
    "    url: https://hooks.example/alert",
    "    authorization: { type: bearer, token: s3cret }",
    "tasks:",
    "  - name: web-stopped",
    "    webhook: alerts",
    '    message: "${NAME} stopped at ${TIMESTAMP}"',
    "eventTriggers:",
    "  - { task: web-stopped, type: vms, event: poweroff, object: web }",
    "schedules:",
    "  - { name: nightly, repeatEvery: day, startTimeOfDay: '02:30', tasks: [web-stopped, '42'] }",
    "",
  ].join("\n");

  test("references stay names (resolved when the resources are declared); the provider's defaults apply", () => {
    const env = loadEnvironment("env.yaml", automation);
    expect(env.webhooks[0]).toMatchObject({ name: "alerts", headers: [{ name: "Content-Type", value: "application/json" }], timeout: 5 });
    expect(env.tasks[0]).toMatchObject({ webhook: "alerts", deleteAfterRunning: false });
    expect(env.eventTriggers[0]).toEqual({ task: "web-stopped", type: "vms", event: "poweroff", object: "web" });
    expect(env.schedules[0]).toMatchObject({ name: "nightly", tasks: ["web-stopped", "42"], repeatEvery: "day" });
  });

  test("a webhook or task that is neither declared nor a key is refused at the reference", () => {
    const text = automation.replace("webhook: alerts", "webhook: alarms").replace("tasks: [web-stopped, '42']", "tasks: [web-started]");
    expect(problems(text)).toEqual([
      expect.stringMatching(/^env\.yaml:9:14: tasks\[0\]\.webhook: webhook 'alarms' is not declared under webhooks: declare it there/),
      expect.stringMatching(/^env\.yaml:14:\d+: schedules\[0\]\.tasks\[0\]: task 'web-started' is not declared under tasks/),
    ]);
  });

  test("the provider's rules apply: a message variable outside the four, a bearer token with its prefix, an end before the start", () => {
    const text = automation
      .replace("${TIMESTAMP}", "${HOST}")
      .replace("token: s3cret", "token: Bearer s3cret")
      .replace("tasks: [web-stopped, '42']", "start: '2031-02-01', end: '2031-01-01'");
    const found = problems(text).join("\n");
    expect(found).toMatch(/tasks\[0\]\.message: message uses \$\{HOST\}/);
    expect(found).toMatch(/webhooks\[0\]\.authorization\.token: /);
    expect(found).toMatch(/schedules\[0\]\.end: end 2031-01-01 is before start 2031-02-01/);
  });

  test("names are unique per kind, and two triggers alike are one declared twice", () => {
    const text = `${automation}  - { name: nightly }\n`.replace(
      "eventTriggers:\n  - { task: web-stopped, type: vms, event: poweroff, object: web }",
      "eventTriggers:\n  - { task: web-stopped, type: vms, event: poweroff, object: web }\n  - { task: web-stopped, type: vms, event: poweroff, object: web }",
    );
    const found = problems(text).join("\n");
    expect(found).toMatch(/schedules\[1\]\.name: schedule name 'nightly' is declared twice/);
    expect(found).toMatch(/eventTriggers\[1\]: event trigger 'web-stopped-vms-poweroff-web' is declared twice/);
  });
});

describe("labs: one template stamped out per copy, checked at the file's lines", () => {
  const lab = (extra = "", copies = 3) =>
    [
      "vnets:",
      "  - { name: office, network: 10.50.0.0/24 }",
      "vms:",
      "  - { name: golden }",
      "labs:",
      "  - name: course",
      `    copies: ${copies}`,
      "    pool: 10.100.0.0/16",
      "    vms:",
      "      - { name: web, cloneFrom: { vm: golden }, nics: [{}], drives: [{ disksize: 10GiB }] }",
      "      - { name: db, cloneFrom: { vm: web }, nics: [{ vnet: office }] }",
      extra,
    ].join("\n");

  test("the class example is valid: 12 copies, 30 in the spring stack", () => {
    const file = path.join(examples, "class.yaml");
    expect(loadEnvironment(file).labs[0].copies).toBe(12);
    expect(loadEnvironment(file, undefined, "spring").labs[0].copies).toBe(30);
  });

  test("the class-labs guide's file is valid, its overlay included", () => {
    const guide = fs.readFileSync(path.join(__dirname, "..", "docs", "guides", "class-labs.md"), "utf8");
    const yaml = /```yaml[^\n]*\n([\s\S]*?)```/.exec(guide)![1]; // the fence may carry flags (`yaml preview`)
    expect(loadEnvironment("class-labs.md", yaml, "spring").labs.map((l) => [l.name, l.copies])).toEqual([["course", 40]]);
  });

  test("a lab takes the file's VM fields (sizes with units), its defaults applied; a NIC may leave out its vnet", () => {
    const [course] = loadEnvironment("env.yaml", lab()).labs;
    expect(course).toMatchObject({ name: "course", copies: 3, copyName: "{lab}-{n}", copyPrefix: 24 });
    expect(course.vms[0].drives[0].disksize).toBe(10 * 2 ** 30);
    expect(course.vms.map((v) => v.nics.map((n) => n.vnet))).toEqual([[undefined], ["office"]]);
  });

  test("a pool too small for the copies is refused at the pool, saying how many fit", () => {
    expect(problems(lab().replace("10.100.0.0/16", "10.100.0.0/23"))).toEqual([
      "env.yaml:8:11: labs[0].pool: the pool 10.100.0.0/23 holds 2 /24 networks, too few for 3 copies: give a larger pool (at most 2 copies fit)",
    ]);
  });

  test("a pattern that makes two equal names is refused at copyName", () => {
    expect(problems(lab('    copyName: "{lab}"'))).toEqual([
      "env.yaml:12:15: labs[0].copyName: '{lab}' makes two copies named 'course' (copies 1 and 2): put {n} in the pattern",
    ]);
  });

  test("a copy's user given a role that reaches beyond its copy is refused at the role, naming the opt-in", () => {
    expect(problems(lab("    user: { role: vmoperator }"))).toEqual([
      expect.stringMatching(/^env\.yaml:\d+:\d+: labs\[0\]\.user\.role: role 'vmoperator' reaches beyond the copy: .*beyondCopy: true/),
    ]);
  });

  test("a copy whose network overlaps a vnet of the file is refused at the pool, naming both", () => {
    expect(problems(lab().replace("10.50.0.0/24", "10.100.2.0/24"))).toEqual([
      "env.yaml:8:11: labs[0].pool: copy course-03's network 10.100.2.0/24 overlaps the vnet 'office' of this file (10.100.2.0/24): choose a pool clear of it",
    ]);
  });

  test("two labs whose copies overlap are refused at the later one's pool; two labs of one name at its name", () => {
    const two = `${lab()}\n  - { name: course, copies: 1, pool: 10.100.1.0/24, vms: [{ name: x }] }\n`;
    expect(problems(two)).toEqual([
      expect.stringMatching(/^env\.yaml:13:\d+: labs\[1\]\.name: lab name 'course' is declared twice$/),
      "env.yaml:13:38: labs[1].pool: copy course-01's network 10.100.1.0/24 overlaps copy course-02 of lab 'course' (10.100.1.0/24): choose a pool clear of it",
    ]);
  });

  test("a copy's vnet or VM named as an entry of the file is refused at the lab's name", () => {
    const clash = lab().replace("{ name: golden }", "{ name: golden }\n  - { name: course-02-web }");
    expect(problems(clash)).toEqual([
      "env.yaml:7:11: labs[0].name: copy course-02's VM 'course-02-web' is also declared under vms: rename one",
    ]);
  });

  test("a key per copy needs a user per copy; template VMs are unique and clone no cycle", () => {
    const found = problems(
      lab("    apiKey: { expires: never }").replace("cloneFrom: { vm: golden }", "cloneFrom: { vm: db }").replace("name: db", "name: web"),
    ).join("\n");
    expect(found).toMatch(/labs\[0\]\.apiKey: a copy's key is its user's: declare user too/);
    expect(found).toMatch(/labs\[0\]\.vms\[1\]\.name: VM name 'web' is declared twice in lab 'course'/);
  });

  test("a lab's VM may clone a snapshot by its key (the term's image, pinned while the golden VM is edited)", () => {
    const [course] = loadEnvironment(
      "env.yaml",
      lab().replace("cloneFrom: { vm: golden }", 'cloneFrom: { snapshot: "42", quiesce: true }'),
    ).labs;
    expect(course.vms[0].cloneFrom).toEqual({ snapshot: "42", quiesce: true });
  });

  test("a snapshot is given by its key: a name is refused at the field (snapshots are no entries of a file)", () => {
    expect(problems(lab().replace("cloneFrom: { vm: golden }", "cloneFrom: { snapshot: term-1 }"))).toEqual([
      expect.stringMatching(/^env\.yaml:10:\d+: labs\[0\]\.vms\[0\]\.cloneFrom\.snapshot: must be a row key/),
    ]);
  });

  test("a clone's source is a VM or a snapshot: both, or neither, is refused at the field", () => {
    expect(problems(lab().replace("cloneFrom: { vm: golden }", "cloneFrom: { vm: golden, snapshot: 42 }"))).toEqual([
      expect.stringMatching(
        /^env\.yaml:10:\d+: labs\[0\]\.vms\[0\]\.cloneFrom\.snapshot: give vm or snapshot, not both: a clone has one source$/,
      ),
    ]);
    expect(problems(lab().replace("cloneFrom: { vm: golden }", "cloneFrom: { quiesce: true }"))).toEqual([
      expect.stringMatching(
        /^env\.yaml:10:\d+: labs\[0\]\.vms\[0\]\.cloneFrom\.vm: give the source to clone: vm \(a VM key\) or snapshot \(a snapshot's key\)$/,
      ),
    ]);
  });

  test("a stack's overlay changes a lab's fields: stacks.<stack>.labs.<lab>", () => {
    const file = `${lab()}\nstacks:\n  prod:\n    labs:\n      course: { copies: 40 }\n`;
    expect(loadEnvironment("env.yaml", file, "prod").labs[0].copies).toBe(40);
    expect(loadEnvironment("env.yaml", file, "dev").labs[0].copies).toBe(3);
    expect(problems(file.replace("course: { copies: 40 }", "curse: { copies: 40 }"))).toEqual([
      expect.stringMatching(/stacks\.prod\.labs\.curse: no lab named 'curse' is declared in labs to override/),
    ]);
  });

  test("an overlay's value is checked as the lab's: a pool too small for prod's copies is refused at the overlay's line", () => {
    const file = `${lab()}\nstacks:\n  prod:\n    labs:\n      course: { copies: 300 }\n`;
    expect(() => loadEnvironment("env.yaml", file, "prod")).toThrow(
      /^env\.yaml:8:11: labs\[0\]\.pool: the pool 10\.100\.0\.0\/16 holds 256 \/24 networks, too few for 300 copies/,
    );
  });
});
