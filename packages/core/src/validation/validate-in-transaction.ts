import type { Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { ColumnValues, RecordRow } from '../records/record-row.js';
import { RecordErrors } from './record-errors.js';

export type { DestroyContext, ValidationContext } from './hook-contexts.js';

/**
 * The checks that need the database, run inside the write's transaction: uniqueness of
 * `unique` fields, each field type's own check (a `belongs_to` target must exist), and the
 * resource's own `validate` hook.
 */
export async function validateInTransaction(input: {
  trx: Transaction<any>;
  resource: CompiledResource;
  registry: ReadonlyMap<string, CompiledResource>;
  changes: ColumnValues;
  existing: RecordRow | undefined;
}): Promise<RecordErrors> {
  const { trx, resource, registry, changes, existing } = input;
  const errors = new RecordErrors();
  for (const field of resource.fields) {
    if (!field.column || !(field.column in changes)) continue;
    const value = changes[field.column];
    if (value === null || value === undefined) continue;
    if (field.definition.options.unique) {
      let query = trx.selectFrom(resource.table).select(resource.primaryKey).where(field.column, '=', value);
      if (existing) query = query.where(resource.primaryKey, '<>', existing[resource.primaryKey]);
      if (await query.limit(1).executeTakeFirst()) errors.add(field.name, 'has already been taken');
    }
    const message = await field.kind.checkInTransaction?.({ trx, resource, field, value, registry });
    if (message !== undefined) errors.add(field.name, message);
  }
  const hooks = resource.hooks;
  if (hooks.validate) {
    await hooks.validate({ operation: existing ? 'update' : 'create', changes, record: { ...(existing ?? {}), ...changes }, errors, db: trx });
  }
  return errors;
}
