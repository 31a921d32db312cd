import { defineFieldType } from '../define-field-type.js';
import { choiceFilter } from '../field-filters.js';
import { keyFilterParts, keyJson, keyOfField, keySchema } from '../key-values.js';
import { MAX_RECORD_ID } from '../max-record-id.js';
import { associationKey } from '../association-key.js';
import { resourceNameFromAssociation } from '../../naming/resource-naming.js';
import { nullable } from './column-value.js';
import { ROW_ALIAS } from '../../records/record-select.js';
import { RECORD_FORM } from '../field-forms.js';

/**
 * A foreign key: answered as `{ id, label }` (the label read by a correlated subquery on the
 * target's table; `label: null` when the target is outside the actor's readable records),
 * written as `<name>_id`, checked to exist by the write's own statement, among the target's
 * records the actor may read (`readable`): one the actor may not read is `must exist`, exactly
 * as one that does not exist.
 */
export const belongsToField = defineFieldType({
  name: 'belongs_to',
  builder: 'field.belongsTo',
  // An association (a token's grants must cover its target), not traversable: its target is one id on the row.
  // Included as the record of the row's foreign key.
  association: { include: { kind: 'one', targetKey: (field, row) => row[field.column!] } },
  filter: choiceFilter(keyFilterParts('targetKey')),
  compile: ({ name, options }) => {
    const column = options.foreignKey ?? `${name}_id`;
    return { column, writeKey: column, target: options.resource ?? resourceNameFromAssociation(name), label: options.label };
  },
  select: ({ eb, field, registry, rowAlias, as, targetScope }) => {
    const target = registry.get(field.target!)!;
    let label = eb.selectFrom(`${target.table} as t`).select(`t.${field.labelColumn}`).whereRef(`t.${target.primaryKey}`, '=', `${rowAlias}.${field.column}`);
    // A target outside the actor's scope keeps its id (the row's own column) and answers no label.
    if (targetScope) label = label.where(`t.${target.primaryKey}`, 'in', targetScope.select(`${rowAlias}.${target.primaryKey}`));
    return label.as(as);
  },
  form: RECORD_FORM,
  serialize: ({ field, row }) => {
    const id = row[field.column!];
    return id === null || id === undefined ? null : { id: keyJson(field, 'targetKey', id), label: row[associationKey(field)] ?? null };
  },
  schema: (field, direction) => {
    const key = keyOfField(field, 'targetKey');
    if (direction === 'read') return nullable('object', { properties: { id: keySchema(field, 'targetKey'), label: {} }, required: ['id', 'label'] });
    if (key === undefined || key.type === 'integer') return nullable('integer', { minimum: 1 });
    return { ...key.schema, type: [key.schema.type, 'null'] };
  },
  parse: (value, field) => {
    const key = keyOfField(field, 'targetKey');
    if (key !== undefined && key.type !== 'integer') {
      const id = key.fromJson(value);
      return id === undefined ? { ok: false, message: `must be the id of a record (${key.expected})` } : { ok: true, value: id };
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) return { ok: false, message: 'must be the id of a record (a positive integer)' };
    return value > MAX_RECORD_ID ? { ok: false, message: 'must exist' } : { ok: true, value };
  },
  checkInStatement: ({ eb, field, value, registry, readable }) => {
    const target = registry.get(field.target!)!;
    const found = eb.selectFrom(`${target.table} as ${ROW_ALIAS}`).select(`${ROW_ALIAS}.${target.primaryKey}`).where(`${ROW_ALIAS}.${target.primaryKey}`, '=', value);
    const scope = readable?.(target);
    return { holds: eb.exists(scope ? scope(found) : found), message: 'must exist' };
  },
});
