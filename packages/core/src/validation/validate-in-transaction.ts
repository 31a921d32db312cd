import type { Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-resource.js';
import type { ColumnValues, RecordRow } from '../records/records-repository.js';
import { RecordErrors } from './record-errors.js';

/** What a resource's `validate` hook receives. */
export interface ValidationContext {
  readonly operation: 'create' | 'update';
  /** The values being written (column → value). */
  readonly changes: ColumnValues;
  /** The record as it will be: the stored row with the changes applied (the changes alone on create). */
  readonly record: RecordRow;
  readonly errors: RecordErrors;
  /** The write's transaction: queries here see what the write sees. */
  readonly db: Transaction<any>;
}

/** What a resource's `beforeDestroy` hook receives; an error added refuses the delete. */
export interface DestroyContext {
  readonly record: RecordRow;
  readonly errors: RecordErrors;
  readonly db: Transaction<any>;
}

/**
 * The checks that need the database, run inside the write's transaction: uniqueness of
 * `unique` fields, existence of `belongs_to` targets ("must exist"), and the resource's own
 * `validate` hook.
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
    if (field.type === 'belongs_to') {
      const target = registry.get(field.target!)!;
      const found = await trx.selectFrom(target.table).select(target.primaryKey).where(target.primaryKey, '=', value).executeTakeFirst();
      if (!found) errors.add(field.name, 'must exist');
    }
  }
  const hooks = resource.hooks;
  if (hooks.validate) {
    await hooks.validate({ operation: existing ? 'update' : 'create', changes, record: { ...(existing ?? {}), ...changes }, errors, db: trx });
  }
  return errors;
}
