import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { CompiledField, FieldFilter, FilterOperator, JsonSchema, ParsedValue } from '../resources/compiled-types.js';
import { textProblem } from '../validation/text-problem.js';

export type { FieldFilter, FilterOperator };

/** Every filter operator, in the order the documents list them. */
export const FILTER_OPERATORS: readonly FilterOperator[] = Object.freeze(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'null', 'contains', 'starts_with']);

/** The operators of ordered values: ids, numbers, dates and datetimes. */
const ORDERED: readonly FilterOperator[] = Object.freeze(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'null']);
/** The operators of text: equality, lists, case-insensitive substring and prefix. */
const TEXT: readonly FilterOperator[] = Object.freeze(['eq', 'ne', 'in', 'contains', 'starts_with', 'null']);
/** The operators of a value from a list (a select's options, a `belongs_to` id). */
const CHOICE: readonly FilterOperator[] = Object.freeze(['eq', 'ne', 'in', 'null']);

const COMPARISONS = { eq: '=', ne: 'is distinct from', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * Escapes the LIKE metacharacters of a value (`%`, `_` and the escape character `\`), so that
 * each matches itself under PostgreSQL's default `ESCAPE '\'`.
 */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** `column ILIKE '%value%'` with the value's metacharacters escaped: contained, case-insensitively. */
export function containsText(eb: ExpressionBuilder<any, any>, column: string, value: string): Expression<SqlBool> {
  return eb(column, 'ilike', `%${escapeLike(value)}%`);
}

/**
 * The condition of one operator on a column whose values compare as `cast` (`bigint`,
 * `numeric`, `date`, `timestamptz`, or undefined for a value PostgreSQL types by the column):
 * `eq ne lt lte gt gte in null`. `ne` keeps the records whose value is null (`IS DISTINCT
 * FROM`): null is not equal to the value. Casting integers to `bigint` keeps an index on an
 * `integer` column usable (one operator family) and never overflows an `integer` parameter.
 */
function comparison(eb: ExpressionBuilder<any, any>, column: string, operator: FilterOperator, value: unknown, cast: string | undefined): Expression<SqlBool> {
  const typed = (one: unknown) => (cast === undefined ? eb.val(one) : sql`cast(${one} as ${sql.raw(cast)})`);
  if (operator === 'null') return eb(column, value === true ? 'is' : 'is not', null);
  if (operator === 'in') return eb(column, 'in', (value as unknown[]).map(typed));
  return eb(column, COMPARISONS[operator as keyof typeof COMPARISONS], typed(value));
}

/**
 * The conditions of `comparison` for values that each stand for a span of what the column holds
 * (`resolution`, an interval): a datetime is answered to the millisecond while PostgreSQL keeps
 * microseconds (`now()`), so `2026-11-29T14:40:48.029Z` stands for every stored instant from
 * it to the next millisecond, and a filter matches the value the API answers. Each condition is
 * a range on the column itself (`col >= $1 and col < $2 + interval`, the value bound twice), so an
 * index on the column serves it; `ne` is the complement, nulls kept; `in` one range per value.
 */
function spanComparison(eb: ExpressionBuilder<any, any>, column: string, operator: FilterOperator, value: unknown, cast: string, resolution: string): Expression<SqlBool> {
  const start = (one: unknown) => sql`cast(${one} as ${sql.raw(cast)})`;
  const end = (one: unknown) => sql`cast(${one} as ${sql.raw(cast)}) + interval ${sql.lit(resolution)}`;
  const within = (one: unknown) => eb.and([eb(column, '>=', start(one)), eb(column, '<', end(one))]);
  switch (operator) {
    case 'eq':
      return within(value);
    case 'ne':
      return eb.or([eb(column, 'is', null), eb(column, '<', start(value)), eb(column, '>=', end(value))]);
    case 'in':
      return eb.or((value as unknown[]).map(within));
    case 'lt':
      return eb(column, '<', start(value));
    case 'lte':
      return eb(column, '<', end(value));
    case 'gt':
      return eb(column, '>=', end(value));
    case 'gte':
      return eb(column, '>=', start(value));
    default:
      return comparison(eb, column, operator, value, cast);
  }
}

/** The filters made here: their SQL depends on the operator, never on the value (except `null`'s `true`/`false`). */
const SHAPED_BY_OPERATOR = new WeakSet<FieldFilter>();

/**
 * Whether a filter's condition writes the same SQL for every value of an operator, the value a
 * bound parameter (`null`'s boolean aside): the filters of the field types' helpers here. A list
 * filtered only by such conditions is compiled once per shape; a field type's own `condition`
 * may write value-dependent SQL, so its lists are built per request.
 */
export function shapedByOperator(filter: FieldFilter): boolean {
  return SHAPED_BY_OPERATOR.has(filter);
}

/** A filter, frozen (typed here so that its members are checked against `FieldFilter`). */
const frozen = (filter: FieldFilter): FieldFilter => {
  SHAPED_BY_OPERATOR.add(filter);
  return Object.freeze(filter);
};

/** What the filter helpers take: how a value parses, its JSON Schema, and how it compares in SQL. */
interface FilterParts {
  readonly parse: (raw: string, field: CompiledField) => ParsedValue;
  readonly schema: (field: CompiledField) => JsonSchema;
  readonly cast?: ((field: CompiledField) => string | undefined) | undefined;
  /**
   * What one value stands for, as a PostgreSQL interval (`'1 millisecond'`), when the column
   * holds finer values than the type answers (with `cast`): a value then matches the span from
   * it to the next one. A constant of the type, never a request's value.
   */
  readonly resolution?: string | undefined;
}

/** A filter of ordered values (`eq ne lt lte gt gte in null`): ids, numbers, dates, datetimes. */
export function orderedFilter(parts: FilterParts): FieldFilter {
  return frozen({
    operators: ORDERED,
    parse: parts.parse,
    schema: parts.schema,
    condition: ({ eb, field, column, operator, value }) => {
      const cast = parts.cast?.(field);
      return parts.resolution !== undefined && cast !== undefined ? spanComparison(eb, column, operator, value, cast, parts.resolution) : comparison(eb, column, operator, value, cast);
    },
  });
}

/** A filter of one value among several (`eq ne in null`): a select's options, a `belongs_to` id. */
export function choiceFilter(parts: FilterParts): FieldFilter {
  return frozen({
    operators: CHOICE,
    parse: parts.parse,
    schema: parts.schema,
    condition: ({ eb, field, column, operator, value }) => comparison(eb, column, operator, value, parts.cast?.(field)),
  });
}

/** Parses a filter's text value: any string PostgreSQL text can hold (`textProblem`: no NUL character, no lone surrogate). */
export function parseFilterText(raw: string): ParsedValue {
  const problem = textProblem(raw);
  return problem === undefined ? { ok: true, value: raw } : { ok: false, message: problem };
}

/**
 * The filter of text (`eq ne in contains starts_with null`): `eq` and `in` are exact,
 * `contains` and `starts_with` case-insensitive, with `%`, `_` and `\` matching themselves.
 */
export const TEXT_FILTER: FieldFilter = frozen({
  operators: TEXT,
  parse: parseFilterText,
  schema: () => ({ type: 'string' }),
  condition: ({ eb, column, operator, value }) => {
    if (operator === 'contains') return containsText(eb, column, value as string);
    if (operator === 'starts_with') return eb(column, 'ilike', `${escapeLike(value as string)}%`);
    return comparison(eb, column, operator, value, undefined);
  },
});

/** The filter of a boolean: `eq` (`true` or `false`) and `null`. */
export const BOOLEAN_FILTER: FieldFilter = frozen({
  operators: Object.freeze(['eq', 'null'] as FilterOperator[]),
  parse: (raw: string) => (raw === 'true' || raw === 'false' ? { ok: true, value: raw === 'true' } : { ok: false, message: 'must be true or false' }),
  schema: () => ({ type: 'boolean' }),
  condition: ({ eb, column, operator, value }) => comparison(eb, column, operator, value, undefined),
});

/** The filter of a list of strings: `contains` (the list holds the value) and `null`. */
export const TAGS_FILTER: FieldFilter = frozen({
  operators: Object.freeze(['contains', 'null'] as FilterOperator[]),
  parse: parseFilterText,
  schema: () => ({ type: 'string' }),
  condition: ({ eb, column, operator, value }) =>
    operator === 'contains' ? sql<SqlBool>`${sql.ref(column)} @> array[${value}]::text[]` : comparison(eb, column, operator, value, undefined),
});

const INTEGER = /^[+-]?\d{1,16}$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a whole number from a query string (a safe integer), or says what is wrong. */
export function parseFilterInteger(raw: string): ParsedValue {
  const value = Number(raw);
  return INTEGER.test(raw) && Number.isSafeInteger(value) ? { ok: true, value } : { ok: false, message: 'must be an integer' };
}

/** Parses a finite number from a query string, or says what is wrong. */
export function parseFilterNumber(raw: string): ParsedValue {
  const value = Number(raw);
  return DECIMAL.test(raw) && Number.isFinite(value) ? { ok: true, value } : { ok: false, message: 'is not a number' };
}
