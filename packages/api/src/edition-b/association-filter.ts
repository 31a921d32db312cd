import { ROW_ALIAS, type CompiledField, type RecordsQuery, type ScopeFunction } from '@panel/core';

/** The association types `related` traverses: the ones that name many (or one) records of another resource. */
export const TRAVERSABLE_TYPES: ReadonlySet<string> = new Set(['has_many', 'has_one', 'has_and_belongs_to_many']);

/** Whether a field is an association the API can traverse (`GET …/:id/<association>`). */
export function isTraversable(field: CompiledField): boolean {
  return TRAVERSABLE_TYPES.has(field.type) && field.target !== undefined;
}

/**
 * Narrows a query of the target resource to the records of one parent: by the foreign key for
 * `has_many` / `has_one`, through the join table for `has_and_belongs_to_many`.
 */
export function associationFilter(field: CompiledField, parentId: number): ScopeFunction {
  if (field.type === 'has_and_belongs_to_many') {
    const join = field.extra.join as { table: string; ownKey: string; targetKey: string };
    return (query: RecordsQuery) =>
      query.where(`${ROW_ALIAS}.id`, 'in', (eb: { selectFrom: (table: string) => RecordsQuery }) => eb.selectFrom(join.table).select(join.targetKey).where(join.ownKey, '=', parentId));
  }
  return (query: RecordsQuery) => query.where(`${ROW_ALIAS}.${field.foreignKey!}`, '=', parentId);
}
