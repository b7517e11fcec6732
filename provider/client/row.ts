/** A row of a platform table as the API sends and takes it (JSON). */
export type Row = Record<string, unknown>;
