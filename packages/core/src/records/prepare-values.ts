import type { CompiledResource } from '../resources/compiled-types.js';
import type { ColumnValues } from './record-row.js';

/**
 * The column values as they are stored: each field whose type has a `prepare` turns its
 * parsed value into the stored one (a password into its digest), before the write's
 * transaction opens, so that hashing never holds a connection. Null stays null.
 */
export async function prepareValues(resource: CompiledResource, values: ColumnValues): Promise<ColumnValues> {
  const prepared = { ...values };
  for (const field of resource.fields) {
    const { prepare } = field.kind;
    if (!prepare || field.column === undefined || !(field.column in values)) continue;
    const value = values[field.column];
    if (value !== null && value !== undefined) prepared[field.column] = await prepare(value, field);
  }
  return prepared;
}
