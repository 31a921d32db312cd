// Over 250 lines: every type the compiled resources and the field type contract share, in one leaf module that imports types only.
/**
 * The types a compiled resource is made of, and the contract of a field type module. A type
 * hub, kept in one leaf module (it imports types only, from leaves) because the resources, the
 * records layer, validation, the field types and the API all name them: spread over their
 * own modules they would import one another in a cycle.
 */
import type { AliasedExpression, Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool, Transaction } from 'kysely';
import type { FieldDefinition, View } from '../fields/field-types.js';
import type { ResourceNaming } from '../naming/resource-naming.js';
import type { ColumnValues, RecordRow } from '../records/record-row.js';
import type { DestroyContext, ValidationContext } from '../validation/hook-contexts.js';
import type { DefaultOrder, ResourceClass } from './resource.js';
import type { CountStrategy } from '../records/count-strategy.js';
import type { ScopeFunction } from '../records/records-query.js';
import type { IncludeLimits } from './include-limits.js';
import type { RecordKey } from './record-key.js';
import type { RecordId } from './record-key.js';

/**
 * Which records of another resource the acting user may read, as a scope over that resource's
 * records query (undefined: every record). A write asks it of the targets its values name (a
 * `belongs_to` id): a target the actor may not read answers exactly like one that does not
 * exist, so a write is never an oracle for records the actor cannot see.
 */
export type ReadableRecords = (target: CompiledResource) => ScopeFunction | undefined;

export type { ColumnValues, DestroyContext, RecordRow, ValidationContext };

/** A JSON Schema (2020-12 style: a nullable value is `type: ['string', 'null']`). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A field with every default resolved: views, column, association target and keys. */
export interface CompiledField {
  readonly name: string;
  /** The type name (`text`, `belongs_to`, or an app's own). */
  readonly type: string;
  /** The module that owns the type's behaviour. */
  readonly kind: FieldTypeModule;
  readonly definition: FieldDefinition;
  readonly views: ReadonlySet<View>;
  /** The column on this resource's table, for fields stored there (for `belongs_to`, the foreign key). */
  readonly column: string | undefined;
  /** The key a write body uses for this field (`author_id` for a `belongs_to` named `author`). */
  readonly writeKey: string;
  readonly required: boolean;
  readonly sortable: boolean;
  /** Whether `filter[…]` may name it: its type has a filter and the field does not say `filterable: false`. */
  readonly filterable: boolean;
  readonly numeric: 'integer' | 'decimal' | undefined;
  /** For associations: the target resource name. */
  readonly target: string | undefined;
  /** For `has_many` / `has_one`: the foreign key column on the target's table. */
  readonly foreignKey: string | undefined;
  /** For `belongs_to`: the label column on the target's table, resolved once every resource is known. */
  readonly labelColumn: string | undefined;
  /** Anything else a field type resolved at boot (a join table, the options of a select). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** The record hooks a resource class may define. */
export interface ResourceHooks {
  readonly validate?: (context: ValidationContext) => void | Promise<void>;
  readonly beforeDestroy?: (context: DestroyContext) => void | Promise<void>;
}

/** A resource with its names, table and compiled fields, ready for the records layer and the API. */
export interface CompiledResource {
  readonly naming: ResourceNaming;
  readonly name: string;
  readonly resourceClass: ResourceClass;
  readonly table: string;
  /** The primary key's column (`static primaryKey`, default `id`). */
  readonly primaryKey: string;
  /** The primary key: its column, its type, how a URL or a body names a record. */
  readonly key: RecordKey;
  readonly titleColumn: string;
  readonly fields: readonly CompiledField[];
  readonly fieldsByName: ReadonlyMap<string, CompiledField>;
  readonly defaultOrder: DefaultOrder;
  /** The resource's own count strategy (`static count`), or undefined for the panel's. */
  readonly count: CountStrategy | undefined;
  /** The fields `q=` searches (`static search`), checked at boot; empty when the resource has none. */
  readonly search: readonly CompiledField[];
  /** How far `include` may reach from this resource's records (`static include`, checked at boot). */
  readonly include: IncludeLimits;
  /** The resource's record hooks, bound to one instance made at boot. */
  readonly hooks: ResourceHooks;
  /** The fields visible on a view, in declaration order. */
  fieldsOn(view: View): readonly CompiledField[];
}

/** A field bound to one record on one view: what a type's `serialize` (and `serializeFieldValue`) receives. */
export interface FieldValue {
  readonly field: CompiledField;
  readonly row: RecordRow;
  readonly view: View;
}

/** Where a field type keeps its value, as `compile` resolves it from a definition. */
export interface FieldLayout {
  /** The column on the resource's own table, if any. */
  readonly column?: string | undefined;
  /** The key of a write body; defaults to the field name. */
  readonly writeKey?: string | undefined;
  /** An association's target resource name. */
  readonly target?: string | undefined;
  /** A `has_many` / `has_one` foreign key on the target's table. */
  readonly foreignKey?: string | undefined;
  /** A `belongs_to` label column, when the definition names one. */
  readonly label?: string | undefined;
  /** For a number: whether it holds whole numbers or decimals. */
  readonly numeric?: 'integer' | 'decimal' | undefined;
  /** Anything else the type keeps for itself. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * What makes a field type an association (a field that names records of another resource,
 * `target`): the API asks it whether a Bearer token's grants cover the target, and whether
 * `GET …/:id/<field>` lists the target's records.
 */
export interface FieldAssociation {
  /**
   * The target's records that belong to one record of the field's resource, as a scope on the
   * target's records query (`has_many`: by the foreign key; `has_and_belongs_to_many`: through
   * the join table). Present: the association is traversable (`GET …/:id/<field>`); absent
   * (`belongs_to`, whose target is one id on the row): it is not.
   */
  related?(field: CompiledField, parentId: RecordId | Expression<unknown>): ScopeFunction;
  /**
   * How `include` embeds the target's records in a record's value (absent: the association
   * cannot be included). `one`: the record whose primary key `targetKey` reads from the row as
   * loaded (a `belongs_to`'s column, a `has_one`'s id), or none; `many`: the first page of the
   * records `related` finds for the row (with its key as a column, so that one statement
   * reads the pages of every parent).
   */
  readonly include?: { readonly kind: 'one'; targetKey(field: CompiledField, row: RecordRow): unknown } | { readonly kind: 'many' };
}

/** What a type's `select` receives to build the subquery that loads its value with the row. */
export interface FieldSelectInput {
  readonly eb: ExpressionBuilder<any, any>;
  readonly resource: CompiledResource;
  readonly field: CompiledField;
  readonly registry: ReadonlyMap<string, CompiledResource>;
  /** The alias of the resource's row in the query (`r`). */
  readonly rowAlias: string;
  /** The key the value is selected as (`associationKey(field)`). */
  readonly as: string;
  /**
   * For an association: the target's rows this request's actor may read (its policy scope, a
   * query on the target's table aliased `r`); undefined when every row may be read. A type
   * narrows its subquery with it (`where t.id in (<targetScope> select r.id)`), so a label,
   * id or count never tells of a row outside the actor's scope.
   */
  readonly targetScope?: SelectQueryBuilder<any, any, any> | undefined;
}

/** What a write value parses to: the value to store, or the message that refuses it. */
export type ParsedValue = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** What a type's database check receives, inside the write's transaction. */
export interface FieldCheckInput {
  readonly trx: Transaction<any>;
  readonly resource: CompiledResource;
  readonly field: CompiledField;
  readonly value: unknown;
  readonly registry: ReadonlyMap<string, CompiledResource>;
  /** The records of a target resource the actor may read; undefined: every record. */
  readonly readable?: ReadableRecords | undefined;
}

/** What a type's statement check receives: the builder of the condition, and the value written. */
export interface FieldStatementCheckInput {
  readonly eb: ExpressionBuilder<any, any>;
  readonly resource: CompiledResource;
  readonly field: CompiledField;
  readonly value: unknown;
  readonly registry: ReadonlyMap<string, CompiledResource>;
  /** The records of a target resource the actor may read; undefined: every record. */
  readonly readable?: ReadableRecords | undefined;
}

/** A condition the write's own statement computes: the write happens only if it holds, else `message`. */
export interface FieldStatementCheck {
  readonly holds: Expression<SqlBool>;
  readonly message: string;
}

/** A filter operator of the query string (`filter[<field>][<op>]`). */
export type FilterOperator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'null' | 'contains' | 'starts_with';

/** What a type's filter condition receives: the builder, the field, its column (`r.<column>`), the operator and the parsed value. */
export interface FilterConditionInput {
  readonly eb: ExpressionBuilder<any, any>;
  readonly field: CompiledField;
  readonly column: string;
  readonly operator: FilterOperator;
  /** The parsed value; an array for `in`; `true` or `false` for `null`. */
  readonly value: unknown;
}

/**
 * How a field type is filtered (`filter[<field>][<op>]=<value>`): its operators, how one
 * query-string value parses (the type's write rules), the JSON Schema of one value (the
 * OpenAPI document's parameters) and the SQL condition. A type without one is not filterable.
 */
export interface FieldFilter {
  readonly operators: readonly FilterOperator[];
  /** Parses one value of the query string, or says what is wrong (`null` takes `true`/`false` and is not asked). */
  parse(raw: string, field: CompiledField): ParsedValue;
  /** The JSON Schema of one value. */
  schema(field: CompiledField): JsonSchema;
  /** The condition, with every user value a bound parameter. */
  condition(input: FilterConditionInput): Expression<SqlBool>;
}

/** What the records layer hands a type's `load` besides the value: how to make a file URL. */
export interface FieldLoadContext {
  readonly fileUrl: (blob: { readonly key: string; readonly filename: string }) => string;
}

/** The control a form shows for a field (the panel's screens draw each kind; no screen asks a type's name). */
export interface FormControl {
  /**
   * `text` (one line; `inputmode` for numbers), `textarea`, `checkbox` (posts `true`, with a
   * hidden `false` before it), `select` (`options`), `date`, `datetime` (`datetime-local`, read
   * as UTC), `password` (always empty), `record` (a record of `target`: a select of its records,
   * or its id), `file` (`multiple` for several).
   */
  readonly kind: 'text' | 'textarea' | 'checkbox' | 'select' | 'date' | 'datetime' | 'password' | 'record' | 'file';
  /** For `text`: the virtual keyboard (`decimal` for numbers, `numeric` for whole numbers). */
  readonly inputmode?: 'decimal' | 'numeric' | undefined;
  /** For `select`: the choices, in order. */
  readonly options?: readonly { readonly value: string; readonly label: string }[] | undefined;
  /** For `record`: the target resource's name. */
  readonly target?: string | undefined;
  /** For `file`: whether several files are attached. */
  readonly multiple?: boolean | undefined;
  /** A hint shown under the label (how to write the value). */
  readonly hint?: string | undefined;
}

/** How a screen shows a field's value (what `serialize` answered), as data a template draws. */
export type FieldDisplay =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'multiline'; readonly text: string }
  | { readonly kind: 'yes_no'; readonly value: boolean }
  /** A record of the field's `target`; `label` null when the target is not readable (then plain text). */
  | { readonly kind: 'record'; readonly id: RecordId; readonly label: string | null }
  /** How many records of the field's `target` belong to this one (an association panel on show). */
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'files'; readonly files: readonly { readonly filename: string; readonly url: string; readonly contentType: string; readonly byteSize: number }[] }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'empty' };

/**
 * How the panel's screens show and edit a field of a type (Django's form field beside DRF's
 * serializer field): how a value is displayed, which control a form shows, the control's value
 * for a stored value, and how the posted strings become the write value a JSON body would carry
 * (then `parse` judges it with the API's messages). A type without `form` is shown as JSON and
 * left off forms (the screens warn at boot).
 */
export interface FieldForm {
  /** How the value `serialize` answered is shown on index and show. */
  display(value: unknown, field: CompiledField): FieldDisplay;
  /** The control of a writable field; absent: the type is never on a form (shown read-only). */
  control?(field: CompiledField): FormControl;
  /** The control's value(s) for the value `serialize` answered (a checkbox: `['true']` when ticked). */
  formValue?(value: unknown, field: CompiledField): readonly string[];
  /**
   * The write value from the posted strings of `record[<write key>]` (several for a repeated
   * control; none for an unticked checkbox): what a JSON body would carry. A string that does
   * not convert is returned as it is, so that `parse` refuses it with the API's own message.
   * `undefined` leaves the field out of the write (an empty password keeps the stored one).
   */
  fromForm?(posted: readonly string[], field: CompiledField): unknown;
}

/**
 * Everything about one field type, in one module (Django REST Framework's `Field` with
 * `to_representation` / `to_internal_value` is the model). The records layer, validation,
 * the API's serializer and the response schemas ask the module; none of them switches on the
 * type name. A panel knows the built-in types plus those passed to
 * `createPanel({ fieldTypes })`; a field whose type no module registers fails at boot.
 *
 * @example
 * export const ratingField = defineFieldType({
 *   name: 'rating',
 *   sortable: true,
 *   serialize: ({ field, row }) => row[field.column!] ?? null,
 *   schema: () => ({ type: ['integer', 'null'], minimum: 1, maximum: 5 }),
 *   parse: (value) => (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 5 ? { ok: true, value } : { ok: false, message: 'must be a whole number of stars from 1 to 5' }),
 * });
 */
export interface FieldTypeModule {
  /** The type name field definitions carry (`text`, `belongs_to`). */
  readonly name: string;
  /** The builder that declares it, for messages (`field.belongsTo`); defaults to `defineField('<name>', …)`. */
  readonly builder?: string;
  /** The views a field of this type is on before its `hideOn` / `onlyOn` / `showOn`. */
  readonly defaultViews: readonly View[];
  /** `column`: the value is a column of the resource's own table; `none`: it is loaded by `select` only. */
  readonly storage: 'column' | 'none';
  /** Whether a write body may set it (on the views where it is visible). */
  readonly writable: boolean;
  /** Whether `sort_by` may name it, unless the field says `sortable: false`. */
  readonly sortable: boolean;
  /** How `filter[…]` narrows a list by this type (operators, values, condition); absent: not filterable. */
  readonly filter?: FieldFilter;
  /** Whether `q=` may search a field of this type (text held in a column). */
  readonly searchable?: boolean;
  /** Present when a field of this type names records of another resource (see `FieldAssociation`); absent: not an association. */
  readonly association?: FieldAssociation;
  /**
   * Present when a field of this type holds attached files (`panel.attachments`): `one` keeps
   * the last file attached (an attach replaces it), `many` keeps every file by position (an
   * attach appends). Absent: the type holds no files.
   */
  readonly attachments?: 'one' | 'many';
  /** The type holds the record's primary key (`field.id`): it names the key column and reads it as the key's type. */
  readonly recordKey?: boolean;
  /**
   * The type holds a credential its person proves who they are with (a password): written only by
   * that person (a token or the code-hook path needs the field's `writableBy`), and a change ends
   * the person's other panel sessions.
   */
  readonly credential?: boolean;
  /**
   * Where a database constraint on the field's column (unique, not null, check) is reported:
   * under the field's name (`field`, the default) or under `base` (`id`: no client writes the
   * primary key, so a message about it is about the record).
   */
  readonly constraintErrorsOn?: 'field' | 'base';
  /** How the panel's screens show and edit the type (see `FieldForm`); absent: shown as JSON, left off forms. */
  readonly form?: FieldForm;
  /** A mistake in a field's options, found at boot: the message (naming the fix), or undefined. */
  checkOptions?(definition: FieldDefinition): string | undefined;
  /** Where the value lives; by default the column named by `options.column` or the field name (storage `column`). */
  compile?(definition: FieldDefinition, owner: ResourceNaming): FieldLayout;
  /** A correlated subquery that loads the value with the row, selected under `input.as`. */
  select?(input: FieldSelectInput): AliasedExpression<unknown, string>;
  /** Turns what `select` loaded into the value `serialize` reads (files get their URLs here). */
  load?(value: unknown, context: FieldLoadContext): unknown;
  /** The JSON value of the field on one record. */
  serialize(input: FieldValue): unknown;
  /** The JSON Schema of the serialized value (`read`) or of a write value (`write`; undefined when not writable). */
  schema(field: CompiledField, direction: 'read' | 'write'): JsonSchema | undefined;
  /** Parses a non-blank write value, or says what is wrong with it; only asked of writable types. */
  parse?(value: unknown, field: CompiledField): ParsedValue;
  /** Whether a write value counts as blank (then `required` applies); default: null or undefined. */
  isBlank?(value: unknown): boolean;
  /** The value stored for a blank write on a field that is not required; default null; undefined leaves the stored value as it is. */
  blankValue?(value: unknown): unknown;
  /** Turns a parsed value into the stored one before the transaction (a password into its digest). */
  prepare?(value: unknown, field: CompiledField): Promise<unknown>;
  /**
   * A check that needs the database, as a condition computed by the write's own statement
   * (a `belongs_to` target exists): the insert or update happens only if every condition
   * holds, so the check and the write see the same rows and cost one round trip.
   * The condition may use `value` only as a bound parameter (`eb.val(value)`, a `where`
   * operand), never to choose its SQL: a write's statement is compiled once per resource,
   * columns and checks, and later writes of that shape send it with their own values.
   */
  checkInStatement?(input: FieldStatementCheckInput): FieldStatementCheck;
  /**
   * A check that needs the database and cannot be one condition: run in the write's
   * transaction (a write with such a field always opens one); the message, or undefined.
   */
  checkInTransaction?(input: FieldCheckInput): Promise<string | undefined>;
}
