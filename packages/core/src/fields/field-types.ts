/** The four views of a resource. */
export type View = 'index' | 'show' | 'new' | 'edit';

/** Every view, in the order the panel shows them. */
export const VIEWS: readonly View[] = Object.freeze(['index', 'show', 'new', 'edit']);

/** The built-in field types. */
export type BuiltinFieldType =
  | 'id'
  | 'text'
  | 'number'
  | 'bigint'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'belongs_to'
  | 'has_many'
  | 'has_one'
  | 'file'
  | 'files'
  | 'select'
  | 'textarea'
  | 'markdown'
  | 'password'
  | 'tags'
  | 'key_value'
  | 'json'
  | 'has_and_belongs_to_many';

/** A field type name: a built-in one, or one an app registers with `createPanel({ fieldTypes })`. */
export type FieldType = BuiltinFieldType | (string & {});

/** Validation rules a field may declare beside `required`. */
export interface FieldRules {
  /** Longest text, in characters: "is too long (maximum is N characters)". */
  maxLength?: number;
  /** Shortest text, in characters: "is too short (minimum is N characters)". */
  minLength?: number;
  /** Smallest number: "must be greater than or equal to N". */
  min?: number;
  /** Largest number: "must be less than or equal to N". */
  max?: number;
  /** A pattern a text must match: "is invalid". */
  format?: RegExp;
  /** The values allowed: "is not included in the list". */
  in?: readonly (string | number | boolean)[];
  /** No other record may have the same value: "has already been taken" (checked by the write's statement, and by a unique index). */
  unique?: boolean;
}

/**
 * What a field's `visible` rule receives: the request's actor (what `currentUserMethod`
 * returns; `null` without one), the record where there is one, and the view. A rule that reads
 * a property of `record` is evaluated once per record; one that does not is evaluated once per
 * request (see `fieldAccess`).
 */
export interface FieldVisibleContext {
  readonly user: any;
  readonly record: Readonly<Record<string, unknown>> | null;
  readonly view: View;
}

/** What a field's `readonly` rule receives: the actor, and the stored record on update (null on create). */
export interface FieldReadonlyContext {
  readonly user: any;
  readonly record: Readonly<Record<string, unknown>> | null;
}

/** What a field's `default` receives on create: the actor. */
export interface FieldDefaultContext {
  readonly user: any;
}

/** Per-actor rules a field may take beside its views (Avo's `visible:` / `readonly:` blocks). */
export interface FieldActorRules {
  /**
   * Whether this actor reads the field (on this record, on this view); only `true` shows it.
   * A field that is not visible is answered as if it were not on the view: absent from the
   * record, refused by `sort_by` like an unknown field, and not writable.
   */
  visible?: (context: FieldVisibleContext) => boolean;
  /** `true`, or whether this actor may not write the field: serialized, never written from the API. */
  readonly?: boolean | ((context: FieldReadonlyContext) => boolean);
  /** The value stored on create when the write does not set it (`({ user }) => user?.id`). */
  default?: (context: FieldDefaultContext) => unknown;
  /**
   * A sensitive field: on the panel-session path a write to it needs a recent password
   * confirmation (403 otherwise); on the token and code-hook paths it is not writable (see `writableBy`).
   */
  confirm?: boolean;
  /**
   * The credential paths besides the person's own panel session that may write a sensitive
   * field (`confirm: true`, or any `password` field): `'token'` (a credential an extension's gate
   * verified, such as an Edition B token), `'code'` (the app's `setupAuthentication`, such as an
   * API key). Default none: there the field answers exactly like a `readonly` one.
   */
  writableBy?: readonly WriteChannel[];
}

/**
 * Who a write comes through: `'person'` (the user's own panel session: the screens, the API's
 * panel-session path, and scripts), `'token'` (a credential a gate verified), `'code'` (the
 * app's `setupAuthentication` hook).
 */
export type WriteChannel = 'person' | 'token' | 'code';

/** Options every field accepts, with the validation rules of `FieldRules` and the per-actor rules of `FieldActorRules`. */
export interface FieldOptions extends FieldRules, FieldActorRules {
  /** Views the field is hidden on (Avo's `hide_on`). */
  hideOn?: View | readonly View[];
  /** The only views the field is shown on (Avo's `only_on`). */
  onlyOn?: View | readonly View[];
  /** Views added to the field type's default views (Avo's `show_on`). */
  showOn?: View | readonly View[];
  /** A write without a value (absent on create, null or empty string) is refused with "can't be blank". */
  required?: boolean;
  /** Whether `sort_by` may name the field on index; defaults to true for column fields. */
  sortable?: boolean;
  /** Whether `filter[…]` may name the field; defaults to true when its type has filters. */
  filterable?: boolean;
  /** The table column; defaults to the field name. */
  column?: string;
}

/** Options of a `number` field. */
export interface NumberFieldOptions extends FieldOptions {
  /** `integer` (the default of `field.integer`) or `decimal` (of `field.decimal`). */
  numeric?: 'integer' | 'decimal';
}

/** Options of `field.decimal`. */
export interface DecimalFieldOptions extends FieldOptions {
  /**
   * The decimal places the `numeric(p, s)` column keeps (its `s`, 0 to 1000): a value with more
   * is refused with "must have at most 2 decimal places" rather than rounded by the database.
   * Without it the column's scale is read at boot; a `numeric` column without one takes any
   * finite number.
   */
  scale?: number;
}

/** Options of a `belongs_to` field. */
export interface BelongsToOptions extends FieldOptions {
  /** The target resource name; defaults to the camelized field name (`author` → `Author`). */
  resource?: string;
  /** The foreign key column on this table; defaults to `<field>_id`. */
  foreignKey?: string;
  /** The target column shown as the label; defaults to the target resource's `title`. */
  label?: string;
  /** Whether `include` may embed the target's record; default true (false: the API answers the name as unknown). */
  includable?: boolean;
}

/** Options of a `has_many` or `has_one` field. */
export interface HasAssociationOptions extends FieldOptions {
  /** The target resource name; defaults to the singular camelized field name (`comments` → `Comment`). */
  resource?: string;
  /** The foreign key column on the target table; defaults to `<this resource's singular key>_id`. */
  foreignKey?: string;
  /** Whether `include` may embed the target's records; default true (false: the API answers the name as unknown). */
  includable?: boolean;
}

/** Options of a `select` field. */
export interface SelectFieldOptions extends FieldOptions {
  /** The values allowed: strings, or `{ value, label }` where the label is what a form shows. */
  options: readonly (string | { readonly value: string; readonly label: string })[];
}

/** Options of a `tags` field. */
export interface TagsFieldOptions extends FieldOptions {
  /** The most tags a value holds; default 100. (`maxLength` is the longest tag; default 100.) */
  maxTags?: number;
}

/** Options of a `key_value` or `json` field. */
export interface JsonFieldOptions extends FieldOptions {
  /** The largest object taken, in bytes of its JSON text; default 16384. */
  maxBytes?: number;
}

/** Options of a `file` or `files` field: what an upload attached to it may be. */
export interface FileFieldOptions extends FieldOptions {
  /** The largest file taken, in bytes; default 10485760 (10 MiB). */
  maxBytes?: number;
  /**
   * The media types taken (`image/png`, `image/*`), judged from the file's bytes (its magic
   * number), not only from the type the client declared; default any type.
   */
  accept?: readonly string[];
}

/** Options of a `has_and_belongs_to_many` field. */
export interface HasAndBelongsToManyOptions extends FieldOptions {
  /** The target resource name; defaults to the singular camelized field name. */
  resource?: string;
  /** The join table; defaults to both route keys in alphabetical order, joined by `_` (`blog_posts_tags`). */
  joinTable?: string;
  /** The join table's column to this resource; defaults to `<this resource's singular key>_id`. */
  foreignKey?: string;
  /** The join table's column to the target; defaults to `<target's singular key>_id`. */
  associationForeignKey?: string;
  /** Whether `include` may embed the target's records; default true (false: the API answers the name as unknown). */
  includable?: boolean;
}

/** A field definition as a resource declares it. Build one with the `field` helpers. */
export interface FieldDefinition {
  readonly name: string;
  readonly type: FieldType;
  /** The options as declared; an app's own field type may take options of its own. */
  readonly options: Readonly<FieldOptions & NumberFieldOptions & DecimalFieldOptions & BelongsToOptions & HasAssociationOptions & { readonly [option: string]: unknown }>;
}
