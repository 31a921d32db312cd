import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { inverseAssociation, inverseAssociationRelated } from './has-many-field.js';
import type { CompiledField, RecordRow } from '../../resources/compiled-types.js';
import { nullable } from './column-value.js';
import { HAS_ONE_FORM } from '../field-forms.js';
import { keyJson, keySchema } from '../key-values.js';

/** The other side of a unique foreign key: answered as `{ id }` (the first by id) or null; read-only. */
export const hasOneField = defineFieldType({
  name: 'has_one',
  builder: 'field.hasOne',
  defaultViews: ['index', 'show'],
  storage: 'none',
  // Included as the record of the id the row answers (the first the actor may read).
  association: { ...inverseAssociationRelated, include: { kind: 'one', targetKey: (field: CompiledField, row: RecordRow) => row[associationKey(field)] } },
  compile: inverseAssociation,
  select: ({ eb, resource, field, registry, rowAlias, as, targetScope }) => {
    const target = registry.get(field.target!)!;
    let first = eb.selectFrom(`${target.table} as t`).select(`t.${target.primaryKey}`).whereRef(`t.${field.foreignKey}`, '=', `${rowAlias}.${resource.primaryKey}`);
    // Only a target the actor may read is answered; none is null.
    if (targetScope) first = first.where(`t.${target.primaryKey}`, 'in', targetScope.select(`${rowAlias}.${target.primaryKey}`));
    return first.orderBy(`t.${target.primaryKey}`).limit(1).as(as);
  },
  form: HAS_ONE_FORM,
  serialize: ({ field, row }) => {
    const id = row[associationKey(field)];
    return id === null || id === undefined ? null : { id: keyJson(field, 'targetKey', id) };
  },
  schema: (field, direction) => (direction === 'read' ? nullable('object', { properties: { id: keySchema(field, 'targetKey') }, required: ['id'] }) : undefined),
});
