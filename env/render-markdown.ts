/**
 * The plan as a pull-request comment: counts, what needs attention first, a
 * table of changes before → after, and a Mermaid diagram of the environment
 * (GitHub renders it in place). Pure: report and environment in, Markdown out.
 */
import { ENVIRONMENT_KINDS, LISTED_TOKENS, type ListedToken, logicalName } from "./environment-kinds";
import { nounOf } from "../provider/schemas/nouns";
import type { Environment } from "./environmentTypes.generated";
import { hardwareName, powerName } from "../sdk/logicalNames";
import { planCopies } from "../provider/plan/lab";
import type { Action, PlannedChange } from "./plan";
import { bytesText } from "../provider/schemas/sizes";
import { formatFieldValue, summaryLine, type Report } from "./render-plan";

const MARK: Record<Action, string> = { create: "➕", update: "✏️", replace: "♻️", delete: "🗑️" };
const SIGN = (action: Action) => `${MARK[action]} ${action}`;

/** A table cell: pipes and line breaks would end the cell or the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** Data loss first, then replacements and deletions, then restarts and the other warnings; errors before all. */
function attentionItems(r: Report): string[] {
  const { plan } = r;
  const dataLoss = plan.warnings.filter((w) => /DATA IS LOST|data is lost|SHRINK/.test(w));
  const replaced = plan.changes
    .filter((c) => c.action === "replace")
    .map((c) => `${c.type} \`${c.name}\` is **replaced**${c.replaceKeys?.length ? ` (because of ${c.replaceKeys.join(", ")})` : ""}`);
  const deleted = plan.changes.filter((c) => c.action === "delete").map((c) => `${c.type} \`${c.name}\` is **deleted**`);
  const others = plan.warnings.filter((w) => !dataLoss.includes(w));
  const outside = plan.outside.map(
    (o) => `${o.type} \`${o.name}\` was ${o.deleted ? "deleted" : "changed"} on the platform outside Pulumi`,
  );
  return [
    ...plan.errors.map((e) => `❌ ${e}`),
    ...dataLoss.map((w) => `🚨 ${w}`),
    ...replaced.map((t) => `${MARK.replace} ${t}`),
    ...deleted.map((t) => `${MARK.delete} ${t}`),
    ...others.map((w) => `⚠️ ${w}`),
    ...outside.map((t) => `↔️ ${t}`),
  ];
}

function changeRows(changes: PlannedChange[]): string[] {
  const rows: string[] = [];
  for (const c of changes) {
    const what = `${SIGN(c.action)} | ${c.type} \`${cell(c.name)}\``;
    if (c.fields.length === 0) rows.push(`| ${what} | | | |`);
    for (const f of c.fields) {
      const before = "before" in f ? `\`${cell(formatFieldValue(f.field, f.before))}\`` : "";
      const after = "after" in f ? `\`${cell(formatFieldValue(f.field, f.after))}\`` : "";
      rows.push(`| ${what} | ${f.field} | ${before} | ${after} |`);
    }
  }
  return rows;
}

/** Node ids are generated (n0, n1, ...); labels are quoted, with Mermaid's entity for a double quote. */
const label = (text: string) => `"${text.replace(/"/g, "#quot;")}"`;

/** The kinds drawn with their links (a VM's hardware, a NIC's vnet); every other list is a box of its entries. */
const DRAWN_APART: ReadonlySet<ListedToken> = new Set(["Vnet", "VirtualMachine"]);

/**
 * The environment as a Mermaid flowchart: each VM a box holding its drives,
 * NICs and devices, each NIC linked to its vnet, each other list of the file a
 * box of its entries (webhooks, users, ...); created, changed, replaced and
 * deleted ones marked (a sign in the label, a colour by class). Resources the
 * plan deletes are no longer in the file: they are drawn apart, as removed.
 */
export function environmentDiagram(environment: Environment, changes: PlannedChange[]): string {
  const actionOf = new Map(changes.map((c) => [c.name, c.action]));
  const lines = ["flowchart LR"];
  const used = new Set<string>();
  let next = 0;
  const node = (name: string, text: string, shape: [string, string] = ["[", "]"]) => {
    const id = `n${next++}`;
    const action = actionOf.get(name);
    used.add(name);
    lines.push(`    ${id}${shape[0]}${label(`${action ? `${MARK[action]} ` : ""}${text}`)}${shape[1]}${action ? `:::${action}` : ""}`);
    return id;
  };
  const vnetIds = new Map(
    environment.vnets.map((v) => [v.name, node(v.name, `vnet ${v.name}${v.network ? `<br/>${v.network}` : ""}`, ["[(", ")]"])]),
  );
  const links: string[] = [];
  for (const vm of environment.vms) {
    lines.push(`  subgraph ${`g${next++}`}[${label(`VM ${vm.name}`)}]`);
    // The VM's power resource changes with its power state: shown on the VM.
    const powerAction = actionOf.get(powerName(vm.name));
    if (!actionOf.has(vm.name) && powerAction) actionOf.set(vm.name, powerAction === "delete" ? "update" : powerAction);
    used.add(powerName(vm.name));
    node(vm.name, `VM ${vm.name}<br/>${vm.cpuCores ?? "?"} cores, ${vm.ram ?? "?"} MB${vm.powerState ? `, ${vm.powerState}` : ""}`, [
      "([",
      "])",
    ]);
    for (const [i, d] of vm.drives.entries()) {
      node(hardwareName(vm.name, "drive", d, i), `drive ${d.name ?? i}${d.disksize ? ` ${bytesText(d.disksize)}` : ""}`);
    }
    const nics = vm.nics.map((n, i) => ({ id: node(hardwareName(vm.name, "nic", n, i), `NIC ${n.name ?? i}`), vnet: n.vnet }));
    for (const [i, d] of vm.devices.entries()) {
      node(hardwareName(vm.name, "device", d, i), `device ${d.name ?? i}${d.type ? ` (${d.type})` : ""}`);
    }
    lines.push("  end");
    for (const { id, vnet } of nics) {
      let target = vnetIds.get(vnet);
      if (!target) {
        // A vnet outside the file (looked up by name): drawn once, unmarked.
        target = node(`(existing) ${vnet}`, `vnet ${vnet} (existing)`, ["[(", ")]"]);
        vnetIds.set(vnet, target);
      }
      links.push(`    ${id} --- ${target}`);
    }
  }
  for (const token of LISTED_TOKENS.filter((t) => !DRAWN_APART.has(t))) {
    const { list } = ENVIRONMENT_KINDS[token];
    const noun = nounOf(token);
    const entries: readonly object[] = environment[list];
    if (entries.length === 0) continue;
    lines.push(`  subgraph ${`g${next++}`}[${label(list)}]`);
    for (const name of entries.map((e) => logicalName(token, e))) node(name, `${noun} ${name}`);
    lines.push("  end");
  }
  if (environment.labs.length > 0) {
    lines.push(`  subgraph ${`g${next++}`}[${label("labs")}]`);
    for (const lab of environment.labs) {
      // A lab is one box: its copies' resources (named after the copy) mark it; a removed copy is drawn as removed.
      const copies = planCopies(lab).map((c) => c.name);
      const own = changes.filter((c) => c.name === lab.name || copies.some((copy) => c.name === copy || c.name.startsWith(`${copy}-`)));
      for (const c of own) used.add(c.name);
      const actions = new Set(own.map((c) => c.action));
      if (actions.size > 0) actionOf.set(lab.name, actions.size === 1 ? [...actions][0] : "update");
      node(lab.name, `lab ${lab.name}<br/>${lab.copies} copies of ${lab.vms.length} VMs, ${lab.pool}`);
    }
    lines.push("  end");
  }
  const removed = changes.filter((c) => !used.has(c.name) && c.action === "delete");
  if (removed.length) {
    lines.push(`  subgraph ${`g${next++}`}[${label("removed from the file")}]`);
    for (const c of removed) node(c.name, `${c.type} ${c.name}`);
    lines.push("  end");
  }
  lines.push(
    ...links,
    "    classDef create fill:#dafbe1,stroke:#1a7f37,color:#1f2328",
    "    classDef update fill:#fff8c5,stroke:#9a6700,color:#1f2328",
    "    classDef replace fill:#ffebe9,stroke:#cf222e,color:#1f2328,stroke-width:3px",
    "    classDef delete fill:#ffebe9,stroke:#cf222e,color:#1f2328,stroke-dasharray:5 5",
  );
  return lines.join("\n");
}

const HEADING: Record<string, string> = { preview: "Plan", drift: "Drift check (platform vs file)" };

/** The pull-request comment of a preview or drift check. */
export function renderMarkdown(r: Report, environment: Environment | undefined): string {
  const out = [`### vplatform ${HEADING[r.command] ?? r.command}: stack \`${r.stack}\`, \`${r.file}\``, ""];
  // A failed run opens with the failure: what it planned before failing is no verdict, and "No changes" would be a false one.
  if (r.result === "failed")
    out.push(`**FAILED** (exit ${r.exitCode})${r.plan.changes.length ? `; planned: ${summaryLine(r.plan)}` : ""}: see the job's log.`);
  else out.push(r.plan.changes.length ? `**${summaryLine(r.plan)}**` : "**No changes.**");
  if (r.result === "drift") out.push("", "**Drift**: the platform differs from the file (exit 2).");
  const attention = attentionItems(r);
  if (attention.length) out.push("", "#### Needs attention", "", ...attention.map((a) => `- ${a}`));
  if (r.plan.changes.length) {
    out.push(
      "",
      "#### Changes",
      "",
      "| action | resource | field | before | after |",
      "|---|---|---|---|---|",
      ...changeRows(r.plan.changes),
    );
  }
  if (environment) {
    out.push("", "#### Environment", "", "```mermaid", environmentDiagram(environment, r.plan.changes), "```");
    out.push("", `${MARK.create} created, ${MARK.update} changed, ${MARK.replace} replaced, ${MARK.delete} deleted; unmarked: unchanged.`);
  }
  return `${out.join("\n")}\n`;
}
