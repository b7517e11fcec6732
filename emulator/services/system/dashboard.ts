/** `dashboard`: one row of system-wide counts, computed at read time. */
import type { EmulatorContext } from "../../engine/context";
import type { FieldDef, Row, TableDef } from "../../model/types";
import { MACHINE_STATUS, VMS } from "../compute/names";
import { VNETS } from "../network/names";
import { CLUSTERS, CLUSTER_STATUS, NODES, STORAGE_TIERS } from "../cluster/names";
import { GROUPS, USERS } from "../identity/names";
import { CATALOG_REPOSITORIES } from "../catalog/names";
import { DASHBOARD } from "./names";

type Count = (ctx: EmulatorContext) => number;
const count =
  (table: string, where: (ctx: EmulatorContext, row: Row) => boolean = () => true) =>
  (ctx: EmulatorContext) =>
    ctx.all(table).filter((row) => where(ctx, row)).length;
const running = (ctx: EmulatorContext, row: Row) => ctx.get(MACHINE_STATUS, row.machine)?.running === true;

/** What the dashboard counts, each as `<name>_count`, `_online`, `_warn` and `_error` (the names the maker's clients read). */
const DASHBOARD_SUBJECTS: Record<string, { all: Count; online: Count }> = {
  machines: {
    all: count(VMS, (_c, vm) => vm.is_snapshot !== true),
    online: count(VMS, (c, vm) => vm.is_snapshot !== true && running(c, vm)),
  },
  vnets: { all: count(VNETS), online: count(VNETS, running) },
  nodes: { all: count(NODES), online: count(NODES, (_c, node) => node.status === "running") },
  clusters: { all: count(CLUSTERS), online: count(CLUSTER_STATUS, (_c, status) => status.status === "online") },
  users: { all: count(USERS), online: count(USERS, (_c, user) => user.enabled === true) },
  groups: { all: count(GROUPS), online: count(GROUPS, (_c, group) => group.enabled === true) },
  repos: { all: count(CATALOG_REPOSITORIES), online: count(CATALOG_REPOSITORIES, (_c, repo) => repo.status === "online") },
  cluster_tiers: { all: count(STORAGE_TIERS), online: count(STORAGE_TIERS) },
  tenants: { all: () => 0, online: () => 0 },
  sites: { all: () => 0, online: () => 0 },
};

const DASHBOARD_COUNTS: Record<string, Count> = {
  ...Object.fromEntries(
    Object.entries(DASHBOARD_SUBJECTS).flatMap(([name, { all, online }]) => [
      [`${name}_count`, all],
      [`${name}_online`, online],
      [`${name}_warn`, () => 0],
      [`${name}_error`, () => 0],
    ]),
  ),
  storage_tiers_count: count(STORAGE_TIERS),
  alarms_count: () => 0,
};

/** `dashboard`: one row of system-wide counts (the maker's clients read it for statistics). */
export const dashboardTable: TableDef = {
  name: DASHBOARD,
  description: "system-wide counts: VMs, vnets, nodes, clusters, storage tiers, users (read-only, one row)",
  keyType: "int",
  singleton: true,
  operations: ["list", "get"],
  fields: Object.fromEntries(
    Object.entries(DASHBOARD_COUNTS).map(([name, count]) => [name, { type: "uint32", compute: count } satisfies FieldDef]),
  ),
  seed: (ctx) => {
    ctx.insert(DASHBOARD, {});
  },
};
