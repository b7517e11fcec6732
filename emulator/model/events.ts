/**
 * Events on the context bus: every table emits `<table>.created`, `.updated` and `.deleted` for its rows; a
 * service adds events of its own (the VM's power changes). Each service declares the union of its events in
 * its names file (names/<area>.ts) and adds it to `ServiceEvents`, so the bus's names are typed by every service while the model
 * imports none.
 */
export const ROW_CHANGES = ["created", "updated", "deleted"] as const;
export type RowChange = (typeof ROW_CHANGES)[number];

/** The bus name of a row change of `Table`. */
export type RowEvent<Table extends string> = `${Table}.${RowChange}`;

export function rowEvent<Table extends string>(table: Table, change: RowChange): RowEvent<Table> {
  return `${table}.${change}`;
}

/**
 * Every service's events, one entry a service, filled by each names file:
 * `declare module "../events" { interface ServiceEvents { compute: ComputeEvent } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the names files (names/<area>.ts) fill it (declaration merging)
export interface ServiceEvents {}

/** An event some service emits: what `emit` sends and a listener may hear (a misspelt name does not compile). */
export type BusEvent = ServiceEvents[keyof ServiceEvents];
