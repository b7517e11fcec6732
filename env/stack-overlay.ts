import { isMap, isScalar, isSeq, type Document, type YAMLMap } from "yaml";

/**
 * One environment file for several stacks: the top-level `stacks` map holds,
 * per stack, field overrides of the vnets, VMs and labs declared above it, by name:
 *
 *   vms:
 *     - { name: web, cpuCores: 2, ram: 2048 }
 *   stacks:
 *     prod:
 *       vms:
 *         web: { cpuCores: 8, ram: 16384 }
 *
 * The overlay's fields replace the entry's (a list such as `drives` as a whole).
 * It is folded into the YAML document node by node, so an error in an overridden
 * value is reported at the overlay's line. Every stack's overlay is checked (a typo
 * in prod shows in a dev preview); only the selected stack's is applied.
 */
export const OVERLAYS_KEY = "stacks";
const OVERLAID = { vnets: "vnet", vms: "VM", labs: "lab" } as const;

const LISTS = `${Object.keys(OVERLAID).slice(0, -1).join(", ")} or ${Object.keys(OVERLAID).at(-1)}`;

export type OverlayProblem = (node: unknown, path: string, message: string) => void;

const keyOf = (node: unknown) => (isScalar(node) ? String(node.value) : String(node));

export function applyStackOverlay(doc: Document.Parsed, stack: string | undefined, problem: OverlayProblem): void {
  const root = doc.contents;
  if (!isMap(root) || !root.has(OVERLAYS_KEY)) return;
  const stacks = root.get(OVERLAYS_KEY, true);
  root.delete(OVERLAYS_KEY);
  if (!isMap(stacks)) {
    problem(stacks, OVERLAYS_KEY, "a map of stack name → overrides, e.g. stacks: { prod: { vms: { web: { ram: 8192 } } } }");
    return;
  }
  for (const { key, value: overlay } of stacks.items) {
    const stackName = keyOf(key);
    const at = `${OVERLAYS_KEY}.${stackName}`;
    if (!isMap(overlay)) {
      problem(overlay ?? key, at, "a map with vnets, vms and/or labs, each a map of name → fields to override");
      continue;
    }
    for (const { key: listKey, value: entries } of overlay.items) {
      const list = keyOf(listKey);
      if (!(list in OVERLAID)) {
        problem(listKey, `${at}.${list}`, `an overlay overrides ${LISTS}, not '${list}'`);
        continue;
      }
      if (!isMap(entries)) {
        problem(entries ?? listKey, `${at}.${list}`, `a map of ${OVERLAID[list as keyof typeof OVERLAID]} name → fields to override`);
        continue;
      }
      const declared = root.get(list, true);
      for (const { key: nameKey, value: fields } of entries.items) {
        const name = keyOf(nameKey);
        const path = `${at}.${list}.${name}`;
        const target = isSeq(declared)
          ? declared.items.find((item): item is YAMLMap => isMap(item) && item.get("name") === name)
          : undefined;
        if (!target)
          problem(nameKey, path, `no ${OVERLAID[list as keyof typeof OVERLAID]} named '${name}' is declared in ${list} to override`);
        else if (!isMap(fields)) problem(fields ?? nameKey, path, "a map of fields to override");
        else if (fields.has("name"))
          problem(fields.get("name", true), `${path}.name`, "an overlay cannot rename; declare the entry per stack instead");
        else if (stackName === stack) for (const field of fields.items) target.set(field.key, field.value);
      }
    }
  }
}
