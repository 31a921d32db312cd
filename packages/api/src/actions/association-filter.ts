import type { CompiledField, ScopeFunction } from '@panel/core';
import type { RecordId } from '@panel/core';

/** Whether a field is an association the API can traverse (`GET …/:id/<association>`): its type says how (`association.related`). */
export function isTraversable(field: CompiledField): boolean {
  return field.kind.association?.related !== undefined && field.target !== undefined;
}

/**
 * Narrows a query of the target resource to the records of one parent, as the field's type
 * says (`has_many` / `has_one`: by the foreign key; `has_and_belongs_to_many`: through the
 * join table).
 */
export function associationFilter(field: CompiledField, parentId: RecordId): ScopeFunction {
  return field.kind.association!.related!(field, parentId);
}
