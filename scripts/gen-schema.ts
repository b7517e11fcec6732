// Generates schema.json (the Pulumi package schema), docs/resources.md, docs/reference/cli.md (from
// env/cli-args.ts), the generated blocks of other pages and the
// dynamic entry modules (provider/dynamic/<file>.ts) from the resource list
// (provider/resources/index.ts) and its zod input schemas.
//   node dist/scripts/gen-schema.js          write both files
//   node dist/scripts/gen-schema.js --check  exit 1 when a committed file is stale
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { RESOURCE_LIST, type Resource, type ResourceSchema } from "../provider/resources";
import { fieldMeta, type WhenRemoved } from "../provider/schemas/common";
import { LOOKUP_FUNCTIONS } from "../provider/resources/lookupFunctions";
import { SETTINGS, SETTING_NAMES, settingKey, type SettingSpec } from "../provider/config/provider-config";
import { labComponentInputs } from "../provider/resources/labInputs";
import { resourceRules, stackRules } from "../policy/rules";
import { COMMAND_SPECS, COMMANDS, ENVIRONMENT, EXIT_CODES, OPTIONS, type OptionName, spec as optionSpec } from "../env/cli-args";
import { STUDENT_COMMAND_SPECS, STUDENT_ENVIRONMENT, STUDENT_OPTIONS, STUDENT_USAGE } from "../env/student-args";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents as zod writes them
type Json = Record<string, any>;
type PulumiProperty = Json;

const PKG = "vplatform";
const token = (name: string) => `${PKG}:index:${name}`;
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A code-safe name for an enum value ("virtio-scsi" → VirtioScsi, "9p" → Value9p): SDK generators need identifiers. */
export function enumValueName(value: string): string {
  const name = value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(pascal)
    .join("");
  return /^[0-9]/.test(name) ? `Value${name}` : name;
}

/** What changing an input does, for the docs (from the field's onChange metadata). */
const CHANGE_TEXT: Record<string, string> = {
  update: "in place",
  replace: "**replaces**",
  powerCycle: "in place; power cycle",
  nextStart: "in place; next start",
  growOnly: "grows in place; smaller **replaces**",
  action: "in place (action)",
  control: "no API call",
};

const WHEN_REMOVED_TEXT: Record<WhenRemoved, string> = { default: "reset to default", unmanaged: "kept, unmanaged" };

const flattenAnyOf = (js: Json): Json[] => (js.anyOf ? (js.anyOf as Json[]).flatMap(flattenAnyOf) : [js]);

/**
 * Maps a JSON schema (from zod) onto a Pulumi property, registering named object and enum types. `reuse`: an enum
 * of the same values as one registered already is that type (the component's fields are the resources' own).
 */
function toProperty(js: Json, typeName: string, types: Json, reuse = false): PulumiProperty {
  const description = js.description as string | undefined;
  // Pulumi schemas allow only primitive defaults.
  const primitiveDefault = ["string", "number", "boolean"].includes(typeof js.default);
  const withDoc = (p: PulumiProperty) => ({
    ...(description ? { description } : {}),
    ...(primitiveDefault ? { default: js.default } : {}),
    ...(js.secret ? { secret: true } : {}),
    ...p,
  });
  if (js.anyOf) {
    const variants = flattenAnyOf(js).filter((v) => v.type !== "null");
    // Keys accept digits as text or a number: the schema says string (what outputs hold).
    const hasString = variants.some((v) => v.type === "string");
    const kept = variants.filter((v) => !(hasString && (v.type === "integer" || v.type === "number")));
    if (kept.length === 1) return withDoc(toProperty(kept[0], typeName, types, reuse));
    // Variants of one primitive type (a date or "never") are that type: SDK generators refuse a union of equal types.
    const primitive = ["string", "number", "integer", "boolean"];
    if (kept.every((v) => v.type === kept[0].type && primitive.includes(v.type) && !v.enum)) return withDoc({ type: kept[0].type });
    // adopt: true or a key.
    return withDoc({ oneOf: kept.map((v) => toProperty(v, typeName, types, reuse)) });
  }
  if (js.enum) {
    const same =
      reuse && Object.keys(types).find((t) => JSON.stringify(types[t].enum?.map((e: Json) => e.value)) === JSON.stringify(js.enum));
    if (same) return withDoc({ $ref: `#/types/${same}` });
    types[token(typeName)] = {
      type: "string",
      description: description ?? typeName,
      enum: (js.enum as string[]).map((value) => ({ name: enumValueName(value), value })),
    };
    return withDoc({ $ref: `#/types/${token(typeName)}` });
  }
  switch (js.type) {
    case "string":
    case "boolean":
    case "integer":
    case "number":
      return withDoc({ type: js.type });
    case "array":
      // The component's lists of objects name their items in the singular (vms: LabVm), the resources' `…Item`.
      return withDoc({ type: "array", items: toProperty(js.items ?? {}, itemTypeName(typeName, reuse), types, reuse) });
    case "object":
      if (js.properties) {
        types[token(typeName)] = {
          type: "object",
          description: description ?? typeName,
          properties: Object.fromEntries(
            Object.entries(js.properties as Json).map(([k, v]) => [
              k,
              toProperty(v, typeName0(k, `${typeName}${pascal(k)}`, reuse), types, reuse),
            ]),
          ),
          ...(js.required?.length ? { required: js.required } : {}),
        };
        return withDoc({ $ref: `#/types/${token(typeName)}` });
      }
      return withDoc({ type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } });
    default:
      return withDoc({ $ref: "pulumi.json#/Any" });
  }
}

/** Types shared by several resources get one name (Timeouts), the rest are named after their resource. */
const SHARED_TYPE_NAMES: Record<string, string> = { timeouts: "Timeouts" };
const itemTypeName = (list: string, reuse: boolean) => (reuse && list.endsWith("s") ? list.slice(0, -1) : `${list}Item`);
/** A nested field's type name: the shared one in the component (its VMs' timeouts are Timeouts), else `name`. */
const typeName0 = (field: string, name: string, reuse: boolean) => (reuse ? (SHARED_TYPE_NAMES[field] ?? name) : name);

/** The inputs of a resource or component (a zod object), its object types named after it. */
function inputEntries(
  inputs: z.ZodObject,
  typePrefix: string,
  types: Json,
  reuse = false,
): { inputProperties: Json; requiredInputs: string[] } {
  const inputProperties: Json = {};
  const requiredInputs: string[] = [];
  for (const [name, field] of Object.entries(inputs.shape as Record<string, z.ZodType>)) {
    const js = z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as Json;
    inputProperties[name] = toProperty(js, SHARED_TYPE_NAMES[name] ?? `${typePrefix}${pascal(name)}`, types, reuse);
    if (!field.safeParse(undefined).success) requiredInputs.push(name);
  }
  return { inputProperties, requiredInputs };
}

function resourceEntry(r: ResourceSchema, types: Json): Json {
  const { inputProperties, requiredInputs } = inputEntries(r.inputs, r.token, types);
  const outputs = Object.fromEntries(
    Object.entries(r.outputs).map(([k, v]) => [k, { type: v.type, description: v.description, ...(v.secret ? { secret: true } : {}) }]),
  );
  const properties = { ...inputProperties, ...outputs };
  return {
    description: r.description,
    inputProperties,
    requiredInputs,
    properties,
    required: [
      ...requiredInputs,
      ...Object.entries(r.outputs)
        .filter(([, v]) => !v.optional)
        .map(([k]) => k),
    ],
  };
}

/** An object type of the schema: its properties (each `[type or $ref, description, secret?]`), all but `optional` required. */
function objectType(description: string, properties: Record<string, [Json, string, "secret"?]>, optional: string[] = []): Json {
  return {
    type: "object",
    description,
    properties: Object.fromEntries(
      Object.entries(properties).map(([k, [type, doc, secret]]) => [k, { ...type, description: doc, ...(secret ? { secret: true } : {}) }]),
    ),
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
  };
}

/**
 * vp.Lab as the plugin's multi-language component (`isComponent`: the engine calls the plugin's Construct, which
 * declares the copies as vp.Lab does): its inputs are labComponentInputs, its output `copies` vp.Lab's
 * (LabCopyOutputs in sdk/lab.ts), per copy by its zero-padded number.
 */
function labComponentEntry(types: Json): Json {
  const text = { type: "string" };
  const ref = (name: string) => ({ $ref: `#/types/${token(name)}` });
  types[token("LabCopyVnet")] = objectType("A copy's vnet", {
    id: [text, "Vnet key"],
    name: [text, "Its name (the copy's)"],
    network: [text, "Its network (CIDR)"],
  });
  types[token("LabCopyUser")] = objectType("A copy's user", { id: [text, "User key"], name: [text, "Its name (the copy's)"] });
  types[token("LabCopyApiKey")] = objectType("A copy's API key", {
    id: [text, "API key key"],
    secret: [text, "The key's secret", "secret"],
  });
  types[token("LabCopyVm")] = objectType(
    "A copy's VM",
    {
      id: [text, "VM key"],
      machineKey: [text, "Its machine's key"],
      name: [text, "Its name on the platform (<copy>-<vm>)"],
      powerState: [text, "Its power state as declared (absent when not managed)"],
      snapshot: [text, "Its reset snapshot's key (with resetSnapshot)"],
    },
    ["powerState", "snapshot"],
  );
  types[token("LabCopy")] = objectType(
    "What the lab declares for one copy",
    {
      number: [{ type: "integer" }, "The copy's number"],
      name: [text, "The copy's name"],
      vnet: [ref("LabCopyVnet"), "The copy's vnet"],
      user: [ref("LabCopyUser"), "The copy's user (with user)"],
      apiKey: [ref("LabCopyApiKey"), "The copy's API key (with apiKey)"],
      vms: [{ type: "object", additionalProperties: ref("LabCopyVm") }, "The copy's VMs, by their name in the template"],
    },
    ["user", "apiKey"],
  );
  return {
    isComponent: true,
    description:
      "A lab for a class: `copies` isolated copies of one template of VMs, each on its own vnet carved from `pool`, with optionally a user (its grants on its own copy only), an API key, a reset snapshot per VM and a class calendar. The same declaration as the TypeScript class vp.Lab, run by the plugin.",
    ...inputEntries(labComponentInputs, "Lab", types, true),
    properties: {
      copies: { type: "object", additionalProperties: ref("LabCopy"), description: 'Per copy, by its zero-padded number ("01")' },
    },
    required: ["copies"],
  };
}

/** A look-up's arguments or result (a zod object) as a function's inputs or outputs, its object types named after it. */
function objectProperties(schema: z.ZodObject, io: "input" | "output", typeName: string, types: Json): Json {
  const properties = Object.fromEntries(
    Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, field]) => [
      k,
      toProperty(z.toJSONSchema(field, { io, unrepresentable: "any" }) as Json, `${typeName}${pascal(k)}`, types),
    ]),
  );
  const shape = schema.shape as Record<string, z.ZodType>;
  const required = Object.keys(shape).filter((k) => io === "output" || !shape[k].safeParse(undefined).success);
  return { properties, ...(required.length ? { required } : {}) };
}

/** The look-ups (provider/resources/lookupFunctions), which the plugin serves by invoke. */
function buildFunctions(types: Json): Json {
  return Object.fromEntries(
    LOOKUP_FUNCTIONS.map((fn) => [
      token(fn.name),
      {
        description: fn.description,
        inputs: objectProperties(fn.args, "input", `${pascal(fn.name)}Args`, types),
        outputs: objectProperties(fn.result, "output", `${pascal(fn.name)}Result`, types),
      },
    ]),
  );
}

/** An explicit provider (`new vplatform.Provider("site-b", {...})`) takes the stack config's settings. */
const withProviderResource = (schema: Json): Json => ({
  ...schema,
  provider: {
    description: "The vplatform provider: one platform site (endpoint, credentials, TLS, timeouts, request budget).",
    inputProperties: schema.config.variables,
  },
});

/**
 * The package's source repository (Pulumi's convention for a provider: github.com/<owner>/pulumi-<name>). The Go SDK's
 * import path follows from it as Pulumi's Go generator derives it for a package SDK (pkg/codegen/go ExtractModulePath,
 * supportPack): the module <repository>/sdk/go, /vN from v2 on, and in it the package vplatform. Written out here so
 * that the path is decided once, not left to the generator's fallback (example.com/pulumi-vplatform).
 */
const REPOSITORY = "https://github.com/vplatform/pulumi-vplatform";

/** The Go SDK's package import path for this version of the package (a major version from 2 on is in the module path). */
export function goImportBasePath(version: string): string {
  const major = Number(version.split(".")[0]);
  const { host, pathname } = new URL(REPOSITORY);
  return `${host}${pathname}/sdk/go${major > 1 ? `/v${major}` : ""}/${PKG}`;
}

export function buildSchema(version: string, resourceList: readonly ResourceSchema[] = RESOURCE_LIST): Json {
  const types: Json = {};
  const resources = {
    ...Object.fromEntries(resourceList.map((r) => [token(r.token), resourceEntry(r, types)])),
    [token("Lab")]: labComponentEntry(types),
  };
  const functions = buildFunctions(types);
  return withProviderResource({
    name: PKG,
    displayName: "vplatform",
    version,
    description:
      "Virtual networks, VMs, drives, NICs, passthrough devices and snapshots of the virtualization platform (dynamic resources; this schema is the contract and the documentation source).",
    keywords: ["pulumi", "virtualization", "category/infrastructure"],
    license: "Apache-2.0",
    repository: REPOSITORY,
    config: {
      variables: Object.fromEntries(
        SETTING_NAMES.map((name) => {
          const { type, description, env, secret } = SETTINGS[name] as SettingSpec;
          return [name, { type, description: `${description.replace(/`/g, "")}; env ${env}`, ...(secret ? { secret: true } : {}) }];
        }),
      ),
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
    // The import path of the code `pulumi import` generates in a TypeScript project (both Node.js hosts read it):
    // the package's one SDK, whose classes take over the imported rows (aliases) and which exports these enums.
    // Python (tools/gen-sdk): the pyproject.toml layout, on the release of `pulumi` the engine is (package.json's
    // @pulumi/pulumi), versioned as the schema so the wheel is pulumi_vplatform-<version>. Go: the import path above.
    language: {
      nodejs: { packageName: "vplatform" },
      go: { importBasePath: goImportBasePath(version) },
      python: { pyproject: { enabled: true }, respectSchemaVersion: true, requires: { pulumi: pulumiPythonRequirement() } },
    },
  });
}

/** `pulumi` from PyPI at the engine's minor release (the installed @pulumi/pulumi is the engine's version). */
function pulumiPythonRequirement(): string {
  const [major, minor] = (require("@pulumi/pulumi/package.json").version as string).split(".").map(Number);
  return `>=${major}.${minor}.0,<${major}.${minor + 1}.0`;
}

const typeText = (p: Json): string => {
  if (p.$ref) return p.$ref.split(":").pop();
  if (p.oneOf) return (p.oneOf as Json[]).map(typeText).join(" \\| "); // escaped: a table cell
  return p.type === "array" ? `${typeText(p.items)}[]` : (p.type ?? "any");
};

export function buildDocs(schema: Json, resourceList: readonly ResourceSchema[] = RESOURCE_LIST): string {
  const lines = [
    "# Resources",
    "",
    "Generated from the zod input schemas by `scripts/gen-schema.ts` (with schema.json); do not edit.",
    "",
    "*On change*: what changing an input does to an existing object. A power-cycle change of a running VM follows its",
    "`powerCyclePolicy`; a next-start change takes effect when the VM next starts.",
    "",
    "*When removed*: what removing an optional input from the program does. *reset to default*: the input has a",
    "default, which is applied like any change; *kept, unmanaged*: the platform keeps its value and the provider no",
    "longer manages it. Either way the next preview shows no changes.",
    "",
  ];
  for (const [tok, r] of Object.entries(schema.resources as Json)) {
    if (r.isComponent) continue; // vp.Lab's fields: docs/guides/class-labs.md
    const token = tok.split(":").pop() as string;
    const shape = resourceList.find((s) => s.token === token)?.inputs.shape as Record<string, z.ZodType>;
    lines.push(
      `## ${token}`,
      "",
      r.description,
      "",
      "| input | type | required | default | on change | when removed | description |",
      "|---|---|---|---|---|---|---|",
    );
    for (const [name, p] of Object.entries(r.inputProperties as Json)) {
      const doc = String(p.description ?? "").replace(/\|/g, "\\|");
      const meta = fieldMeta(shape[name]);
      const onChange = meta?.createOnly && meta.onChange !== "replace" ? "used at creation only" : CHANGE_TEXT[meta?.onChange ?? "update"];
      const removed = meta?.whenRemoved ? WHEN_REMOVED_TEXT[meta.whenRemoved] : "";
      lines.push(
        `| ${name} | ${typeText(p)} | ${r.requiredInputs.includes(name) ? "yes" : ""} | ${p.default !== undefined ? `\`${JSON.stringify(p.default)}\`` : ""} | ${onChange} | ${removed} | ${doc} |`,
      );
    }
    const outputs = Object.keys(r.properties).filter((k) => !(k in r.inputProperties));
    lines.push(
      "",
      `Outputs: \`id\` (the row key), every input (normalized), ${outputs.map((o) => `\`${o}\`${r.properties[o].secret ? " (secret)" : ""}`).join(", ") || "nothing else"}.`,
      "",
    );
  }
  lines.push("# Functions (look-ups)", "", "SDK functions (`getX` and `getXOutput`) and the plugin's functions (`fn::invoke`).", "");
  for (const [tok, f] of Object.entries((schema.functions ?? {}) as Json)) {
    lines.push(
      `## ${tok.split(":").pop()}`,
      "",
      f.description,
      "",
      "| argument | type | required | default | description |",
      "|---|---|---|---|---|",
    );
    for (const [name, p] of Object.entries(f.inputs.properties as Json)) {
      const required = (f.inputs.required ?? []).includes(name) ? "yes" : "";
      const byDefault = p.default !== undefined ? `\`${JSON.stringify(p.default)}\`` : "";
      lines.push(`| ${name} | ${typeText(p)} | ${required} | ${byDefault} | ${String(p.description ?? "").replace(/\|/g, "\\|")} |`);
    }
    const results = Object.entries(f.outputs.properties as Json).map(([k, p]) => `\`${k}\` (${typeText(p)})`);
    lines.push("", `Result: ${results.join(", ")}.`, "");
  }
  lines.push("## Types", "");
  for (const [tok, t] of Object.entries(schema.types as Json)) {
    const name = tok.split(":").pop();
    lines.push(
      t.enum
        ? `- **${name}**: one of ${t.enum.map((e: Json) => `\`${e.value}\``).join(", ")}`
        : `- **${name}**: object with ${Object.keys(t.properties)
            .map((k) => `\`${k}\``)
            .join(", ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The configuration table of docs/reference/configuration.md, from provider/config's SETTINGS. */
export function buildConfigTable(): string {
  const rows = SETTING_NAMES.map((name) => {
    const { env, secret, description } = SETTINGS[name] as SettingSpec;
    return `| \`${settingKey(name)}\`${secret ? " (secret)" : ""} | \`${env}\` | ${description} |`;
  });
  return ["| setting | env fallback | meaning |", "|---|---|---|", ...rows].join("\n");
}

/** A table cell's text: a `|` would end the cell. */
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The teams guide's table of the policy pack's rules (policy/rules.ts): what each requires of which resource, and its settings. */
export function buildPolicyTable(): string {
  const rows = [...resourceRules.map((r) => ({ ...r, together: false })), ...stackRules.map((r) => ({ ...r, together: true }))].map(
    (rule) => {
      const settings =
        Object.entries(rule.settings as Record<string, { default: unknown; description: string }>)
          .map(([name, s]) => `\`${name}\` (\`${JSON.stringify(s.default)}\`): ${s.description}`)
          .join("; ") || "none";
      const appliesTo = `\`${rule.appliesTo}\`${rule.together ? " (the stack's, together)" : ""}`;
      return `| \`${rule.name}\` | ${appliesTo} | ${cell(rule.description)} | ${rule.enforcementLevel} | ${cell(settings)} |`;
    },
  );
  return ["| rule | applies to | requires | level | settings (default) |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** docs/reference/cli.md: the `vplatform env` CLI, from its parser's declarations (env/cli-args.ts). */
export function buildCliReference(): string {
  const code = (text: string) => `\`${text}\``;
  const options = (Object.keys(OPTIONS) as OptionName[]).map((name) => {
    const o = optionSpec(name);
    const forms = [`--${name}${o.value ? ` ${o.value}` : ""}`, ...(o.short ? [`-${o.short}`] : [])].map(code).join(", ");
    const scope = o.commands ? o.commands.join(", ") : o.needs ? `with ${code(`--${o.needs}`)}` : "all";
    return `| ${forms} | ${scope} | ${cell(o.meaning)} | ${o.default ? cell(o.default) : ""} |`;
  });
  return [
    "# The `vplatform env` CLI",
    "",
    "<!-- Generated from env/cli-args.ts (the parser's declarations) by scripts/gen-schema.ts: do not edit. -->",
    "",
    "Provisions a YAML environment file; how to write one and when to use which command:",
    "[YAML environments](../guides/yaml-environments.md). In a project that installed the package it runs as",
    "`npx vplatform env …` (an install puts no `vplatform` on PATH); `npx vplatform env --help` prints the same.",
    "",
    "```text",
    `vplatform env <${COMMANDS.join("|")}> <file.yaml> --stack <name> [options]`,
    "```",
    "",
    "## Commands",
    "",
    "| command | what it does |",
    "|---|---|",
    ...COMMANDS.map((c) => `| ${code(c)} | ${cell(COMMAND_SPECS[c])} |`),
    "",
    "## Options",
    "",
    "| option | commands | meaning | default |",
    "|---|---|---|---|",
    ...options,
    "",
    "## Exit codes",
    "",
    "| code | meaning |",
    "|---|---|",
    ...Object.values(EXIT_CODES).map(({ code: n, meaning }) => `| ${n} | ${cell(meaning)} |`),
    "",
    "## Environment",
    "",
    "| for | read from |",
    "|---|---|",
    ...Object.entries(ENVIRONMENT).map(([what, where]) => `| ${what} | ${cell(where)} |`),
    "",
    ...buildStudentReference(),
  ].join("\n");
}

/** The `vplatform student` section of docs/reference/cli.md, from its parser's declarations (env/student-args.ts). */
function buildStudentReference(): string[] {
  const code = (text: string) => `\`${text}\``;
  return [
    "## `vplatform student`",
    "",
    "What a student runs with their own copy's API key, without the course's stack, state or file",
    "([Labs for a class](../guides/class-labs.md)). `vplatform student --help` prints the same.",
    "",
    "```text",
    STUDENT_USAGE.split("\n")[0].replace(/^usage: /, ""),
    "```",
    "",
    "| command | what it does |",
    "|---|---|",
    ...Object.entries(STUDENT_COMMAND_SPECS).map(([c, what]) => `| ${code(c)} | ${cell(what)} |`),
    "",
    "| option | meaning | default |",
    "|---|---|---|",
    ...Object.entries(STUDENT_OPTIONS).map(
      ([name, o]) =>
        `| ${[`--${name}${"value" in o ? ` ${o.value}` : ""}`, ...("short" in o ? [`-${o.short}`] : [])].map(code).join(", ")} | ${cell(o.meaning)} | ${"default" in o ? cell(o.default) : ""} |`,
    ),
    "",
    ...Object.values(STUDENT_ENVIRONMENT).map((line) => `- ${line}`),
    "",
  ];
}

const BLOCK = (name: string) => [`<!-- generated: ${name} (scripts/gen-schema.ts) -->`, `<!-- end of generated: ${name} -->`] as const;

/** The Markdown pages holding generated blocks, by block name: the pages a user reads them in. */
const BLOCK_PAGES = {
  configuration: { file: "docs/reference/configuration.md", build: buildConfigTable },
  "policy rules": { file: "docs/guides/teams-and-gitops.md", build: buildPolicyTable },
};

/** `text` (the Markdown file `file`) with the named generated block's contents replaced. */
export function replaceBlock(file: string, text: string, name: string, contents: string): string {
  const [open, close] = BLOCK(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${file} has no block '${open}' … '${close}'`);
  return `${text.slice(0, start + open.length)}\n${contents}\n${text.slice(end)}`;
}

/**
 * A resource's dynamic entry module: what `require("vplatform/dynamic/<file>")`, recorded as each
 * dynamic resource's `__provider`, loads. Existing state names these files, so they stay.
 */
export function dynamicEntry(r: Pick<Resource, "token">): string {
  return [
    "// Generated from the resource list (provider/resources/index.ts) by scripts/gen-schema.ts: do not edit.",
    "// The dynamic-provider entry of this resource: the module IS the provider (see sdk/providerShim.ts).",
    'import { RESOURCES } from "../resources";',
    `export = RESOURCES.${r.token}.dynamic;`,
    "",
  ].join("\n");
}

/**
 * sdk/enums.generated.ts: schema.json's enums as the SDK's constants, named as Pulumi's TypeScript generator
 * names them, so the code `pulumi import` pastes (`vplatform.VirtualMachineOsFamily.Linux`) compiles against
 * `vplatform`. Each is also the union of its values, which the SDK's inputs take.
 */
export function buildSdkEnums(schema: Json): string {
  const lines = ["// Generated from schema.json's enums by scripts/gen-schema.ts; do not edit.", ""];
  for (const [tok, t] of Object.entries(schema.types as Json)) {
    if (!t.enum) continue;
    const name = tok.split(":").pop() as string;
    const members = (t.enum as Json[]).map((e) => `  ${e.name}: ${JSON.stringify(e.value)},`);
    lines.push(`/** ${t.description ?? name} */`, `export const ${name} = {`, ...members, "} as const;");
    lines.push(`export type ${name} = (typeof ${name})[keyof typeof ${name}];`, "");
  }
  return lines.join("\n");
}

export function dynamicEntryFiles(resourceList: readonly Pick<Resource, "token" | "dynamicFile">[]): Record<string, string> {
  return Object.fromEntries(resourceList.map((r) => [`provider/dynamic/${r.dynamicFile}.ts`, dynamicEntry(r)]));
}

export function generatedFiles(root: string): Record<string, string> {
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version as string;
  const schema = buildSchema(version);
  const pages = Object.entries(BLOCK_PAGES).map(([name, { file, build }]) => {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    return [file, replaceBlock(file, text, name, build())] as const;
  });
  return {
    "schema.json": `${JSON.stringify(schema, null, 2)}\n`,
    "docs/resources.md": buildDocs(schema),
    "sdk/enums.generated.ts": buildSdkEnums(schema),
    "docs/reference/cli.md": buildCliReference(),
    ...Object.fromEntries(pages),
    ...dynamicEntryFiles(RESOURCE_LIST),
  };
}

if (require.main === module) {
  const root = path.resolve(__dirname, "..", "..");
  const check = process.argv.includes("--check");
  let stale = false;
  for (const [file, text] of Object.entries(generatedFiles(root))) {
    const target = path.join(root, file);
    const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
    if (current === text) continue;
    if (check) {
      console.error(`${file} is stale: run \`npm run build && node dist/scripts/gen-schema.js\``);
      stale = true;
    } else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
      console.log(`wrote ${file}`);
    }
  }
  if (stale) process.exit(1);
}
