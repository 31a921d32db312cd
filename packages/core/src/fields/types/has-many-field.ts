import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { resourceNameFromAssociation, type ResourceNaming } from '../../naming/resource-naming.js';
import type { FieldAssociation, FieldLayout, FieldValue } from '../../resources/compiled-types.js';
import type { FieldDefinition } from '../field-types.js';
import { ROW_ALIAS } from '../../records/record-select.js';
import { COUNT_FORM } from '../field-forms.js';

/** The JSON Schema of a `{ count }` value. */
export const COUNT_SCHEMA = Object.freeze({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });

/** `{ count }` of an association counted in SQL. */
export const countJson = ({ field, row }: FieldValue): unknown => ({ count: Number(row[associationKey(field)] ?? 0) });

/** Where a `has_many` or `has_one` points: the target resource, and its foreign key back to this one. */
export const inverseAssociation = ({ name, options }: FieldDefinition, owner: ResourceNaming): FieldLayout => ({
  target: options.resource ?? resourceNameFromAssociation(name),
  foreignKey: options.foreignKey ?? `${owner.singularKey}_id`,
});

/** A `has_many` or `has_one`: traversable, the target's records whose foreign key names the parent. */
export const inverseAssociationRelated: FieldAssociation = {
  related: (field, parentId) => (query) => query.where(`${ROW_ALIAS}.${field.foreignKey!}`, '=', parentId),
};

/** A to-many association's `include`: a page of the records `related` finds. */
export const INCLUDES_MANY = Object.freeze({ kind: 'many' as const });

/** The other side of a foreign key: answered as `{ count }`, counted by a correlated subquery; read-only. */
export const hasManyField = defineFieldType({
  name: 'has_many',
  builder: 'field.hasMany',
  defaultViews: ['index', 'show'],
  storage: 'none',
  association: { ...inverseAssociationRelated, include: INCLUDES_MANY },
  form: COUNT_FORM,
  compile: inverseAssociation,
  select: ({ eb, resource, field, registry, rowAlias, as, targetScope }) => {
    const target = registry.get(field.target!)!;
    let count = eb
      .selectFrom(`${target.table} as t`)
      .select((inner) => inner.fn.countAll<number>().as('count'))
      .whereRef(`t.${field.foreignKey}`, '=', `${rowAlias}.${resource.primaryKey}`);
    // Counts what the actor may read.
    if (targetScope) count = count.where(`t.${target.primaryKey}`, 'in', targetScope.select(`${rowAlias}.${target.primaryKey}`));
    return count.as(as);
  },
  serialize: countJson,
  schema: (_field, direction) => (direction === 'read' ? COUNT_SCHEMA : undefined),
});
