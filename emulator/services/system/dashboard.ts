/** `dashboard`: one row of system-wide counts, computed at read time. */
import type { EmulatorContext } from "../../engine/context";
import type { FieldDef, Row } from "../../model/types";
import { table } from "../../model/tableParts";
import { COMPUTE } from "../../model/names/compute";
import { NETWORK } from "../../model/names/network";
import { CLUSTER } from "../../model/names/cluster";
import { IDENTITY } from "../../model/names/identity";
import { CATALOG } from "../../model/names/catalog";
import { SYSTEM } from "../../model/names/system";

type Count = (ctx: EmulatorContext) => number;
const count =
  (table: string, where: (ctx: EmulatorContext, row: Row) => boolean = () => true) =>
  (ctx: EmulatorContext) =>
    ctx.all(table).filter((row) => where(ctx, row)).length;
const running = (ctx: EmulatorContext, row: Row) => ctx.get(COMPUTE.machine_status, row.machine)?.running === true;

/** What the dashboard counts, each as `<name>_count`, `_online`, `_warn` and `_error` (the names the maker's clients read). */
const DASHBOARD_SUBJECTS: Record<string, { all: Count; online: Count }> = {
  machines: {
    all: count(COMPUTE.vms, (_c, vm) => vm.is_snapshot !== true),
    online: count(COMPUTE.vms, (c, vm) => vm.is_snapshot !== true && running(c, vm)),
  },
  vnets: { all: count(NETWORK.vnets), online: count(NETWORK.vnets, running) },
  nodes: { all: count(CLUSTER.nodes), online: count(CLUSTER.nodes, (_c, node) => node.status === "running") },
  clusters: { all: count(CLUSTER.clusters), online: count(CLUSTER.cluster_status, (_c, status) => status.status === "online") },
  users: { all: count(IDENTITY.users), online: count(IDENTITY.users, (_c, user) => user.enabled === true) },
  groups: { all: count(IDENTITY.groups), online: count(IDENTITY.groups, (_c, group) => group.enabled === true) },
  repos: { all: count(CATALOG.catalog_repositories), online: count(CATALOG.catalog_repositories, (_c, repo) => repo.status === "online") },
  cluster_tiers: { all: count(CLUSTER.storage_tiers), online: count(CLUSTER.storage_tiers) },
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
  storage_tiers_count: count(CLUSTER.storage_tiers),
  alarms_count: () => 0,
};

/** `dashboard`: one row of system-wide counts (the maker's clients read it for statistics). */
export const dashboardTable = table(SYSTEM.dashboard, {
  description: "system-wide counts: VMs, vnets, nodes, clusters, storage tiers, users (read-only, one row)",
  keyType: "int",
  singleton: true,
  operations: ["list", "get"],
  fields: Object.fromEntries(
    Object.entries(DASHBOARD_COUNTS).map(([name, count]) => [name, { type: "uint32", compute: count } satisfies FieldDef]),
  ),
  seed: (ctx) => {
    ctx.insert(SYSTEM.dashboard, {});
  },
});
