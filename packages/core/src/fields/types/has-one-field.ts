import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { inverseAssociation } from './has-many-field.js';
import { nullable } from './column-value.js';

/** The other side of a unique foreign key: answered as `{ id }` (the first by id) or null; read-only. */
export const hasOneField = defineFieldType({
  name: 'has_one',
  builder: 'field.hasOne',
  defaultViews: ['index', 'show'],
  storage: 'none',
  compile: inverseAssociation,
  select: ({ eb, resource, field, registry, rowAlias, as }) => {
    const target = registry.get(field.target!)!;
    return eb
      .selectFrom(`${target.table} as t`)
      .select(`t.${target.primaryKey}`)
      .whereRef(`t.${field.foreignKey}`, '=', `${rowAlias}.${resource.primaryKey}`)
      .orderBy(`t.${target.primaryKey}`)
      .limit(1)
      .as(as);
  },
  serialize: ({ field, row }) => {
    const id = row[associationKey(field)];
    return id === null || id === undefined ? null : { id };
  },
  schema: (_field, direction) => (direction === 'read' ? nullable('object', { properties: { id: { type: 'integer' } }, required: ['id'] }) : undefined),
});
