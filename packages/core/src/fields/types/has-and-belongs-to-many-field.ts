import { defineFieldType } from '../define-field-type.js';
import { COUNT_SCHEMA, INCLUDES_MANY, countJson } from './has-many-field.js';
import { resourceNameFromAssociation, resourceNaming } from '../../naming/resource-naming.js';
import type { CompiledField } from '../../resources/compiled-types.js';
import { ROW_ALIAS, type RecordsQuery } from '../../records/record-select.js';
import { COUNT_FORM } from '../field-forms.js';
import { keyOfField } from '../key-values.js';

/** The join table and its two columns, as `compile` resolves them. */
interface JoinTable {
  readonly table: string;
  /** The column that points at this resource's row. */
  readonly ownKey: string;
  /** The column that points at the target's row. */
  readonly targetKey: string;
}

const joinOf = (field: CompiledField): JoinTable => field.extra.join as JoinTable;

/**
 * Many-to-many through a join table (Rails' `has_and_belongs_to_many`): answered as
 * `{ count }` of the join rows, counted by a correlated subquery within the page query;
 * read-only through the API. The join table defaults to both route keys in alphabetical
 * order (`blog_posts_tags`), its columns to `<singular key>_id` of each side; `joinTable`,
 * `foreignKey` (to this resource) and `associationForeignKey` (to the target) override them.
 */
export const hasAndBelongsToManyField = defineFieldType({
  name: 'has_and_belongs_to_many',
  builder: 'field.hasAndBelongsToMany',
  defaultViews: ['index', 'show'],
  storage: 'none',
  association: {
    include: INCLUDES_MANY,
    // Traversable: the target's records the join table pairs with the parent.
    related: (field, parentId) => (query) => {
      const { table, ownKey, targetKey } = joinOf(field);
      return query.where(`${ROW_ALIAS}.${keyOfField(field, 'targetKey')?.column ?? 'id'}`, 'in', (eb: { selectFrom: (table: string) => RecordsQuery }) => eb.selectFrom(table).select(targetKey).where(ownKey, '=', parentId));
    },
  },
  compile: ({ name, options }, owner) => {
    const target = options.resource ?? resourceNameFromAssociation(name);
    const other = resourceNaming(target);
    const table = (options.joinTable as string | undefined) ?? [owner.routeKey, other.routeKey].sort().join('_');
    const ownKey = options.foreignKey ?? `${owner.singularKey}_id`;
    const targetKey = (options.associationForeignKey as string | undefined) ?? `${other.singularKey}_id`;
    return { target, foreignKey: ownKey, extra: { join: Object.freeze({ table, ownKey, targetKey }) } };
  },
  select: ({ eb, resource, field, registry, rowAlias, as, targetScope }) => {
    const { table, ownKey, targetKey } = joinOf(field);
    let count = eb
      .selectFrom(`${table} as j`)
      .select((inner) => inner.fn.countAll<number>().as('count'))
      .whereRef(`j.${ownKey}`, '=', `${rowAlias}.${resource.primaryKey}`);
    // Counts the targets the actor may read.
    if (targetScope) count = count.where(`j.${targetKey}`, 'in', targetScope.select(`${rowAlias}.${registry.get(field.target!)!.primaryKey}`));
    return count.as(as);
  },
  form: COUNT_FORM,
  serialize: countJson,
  schema: (_field, direction) => (direction === 'read' ? COUNT_SCHEMA : undefined),
});
