/** A row as the records layer returns it: columns, plus computed values under `__<type>__<name>`. */
export type RecordRow = Record<string, unknown>;

/** Column → value, already parsed and validated. */
export type ColumnValues = Record<string, unknown>;
