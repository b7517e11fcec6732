/**
 * Events on the context bus: every table emits `<table>.created`, `.updated` and `.deleted` for its rows; a
 * service adds events of its own (the VM's power changes). Each service declares the union of its events in
 * its names.ts.
 */
export const ROW_CHANGES = ["created", "updated", "deleted"] as const;
export type RowChange = (typeof ROW_CHANGES)[number];

/** The bus name of a row change of `Table`. */
export type RowEvent<Table extends string> = `${Table}.${RowChange}`;

export function rowEvent<Table extends string>(table: Table, change: RowChange): RowEvent<Table> {
  return `${table}.${change}`;
}
