import type { Session } from "./session";
import { str } from "./platform";
import { quoteLiteral } from "../client/query-string";

export interface CloudinitFile {
  name: string;
  contents: string;
}

const listFileRows = (api: Session, vmKey: string) =>
  api.list("cloudinit_files", { filter: `owner eq ${quoteLiteral(`vms/${vmKey}`)}`, fields: "$key,name,contents" });

/**
 * The VM's files in the `cloudinit_files` table (POST vms and clones create
 * them; afterwards the table is where they change). Declared order first, so
 * a refresh of an unchanged set compares equal.
 */
export async function readCloudinitFiles(api: Session, vmKey: string, declaredOrder: string[] = []): Promise<CloudinitFile[]> {
  const rows = await listFileRows(api, vmKey);
  const rank = (name: string) => (declaredOrder.includes(name) ? declaredOrder.indexOf(name) : declaredOrder.length);
  return rows
    .map((r) => ({ name: str(r.name), contents: str(r.contents) }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** Makes the VM's files exactly `files`: changed contents are PUT, new files POSTed, undeclared ones deleted. */
export async function syncCloudinitFiles(api: Session, vmKey: string, files: CloudinitFile[]): Promise<void> {
  const owner = `vms/${vmKey}`;
  const live = await listFileRows(api, vmKey);
  for (const file of files) {
    const row = live.find((r) => str(r.name) === file.name);
    if (!row) await api.create("cloudinit_files", { owner, name: file.name, contents: file.contents });
    else if (str(row.contents) !== file.contents) await api.update("cloudinit_files", str(row.$key), { contents: file.contents });
  }
  for (const row of live) {
    if (!files.some((f) => f.name === str(row.name))) await api.remove("cloudinit_files", str(row.$key));
  }
}
