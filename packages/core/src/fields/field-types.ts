/** The four views of a resource. */
export type View = 'index' | 'show' | 'new' | 'edit';

/** Every view, in the order the panel shows them. */
export const VIEWS: readonly View[] = Object.freeze(['index', 'show', 'new', 'edit']);

/** The field types of the spec. */
export type FieldType =
  | 'id'
  | 'text'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'belongs_to'
  | 'has_many'
  | 'has_one'
  | 'file'
  | 'files';

import type { FieldRules } from '../validation/field-rules.js';

/** Options every field accepts, with the validation rules of `FieldRules`. */
export interface FieldOptions extends FieldRules {
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
  /** The table column; defaults to the field name. */
  column?: string;
}

/** Options of a `number` field. */
export interface NumberFieldOptions extends FieldOptions {
  /** `integer` (the default of `field.integer`) or `decimal` (of `field.decimal`). */
  numeric?: 'integer' | 'decimal';
}

/** Options of a `belongs_to` field. */
export interface BelongsToOptions extends FieldOptions {
  /** The target resource name; defaults to the camelized field name (`author` → `Author`). */
  resource?: string;
  /** The foreign key column on this table; defaults to `<field>_id`. */
  foreignKey?: string;
  /** The target column shown as the label; defaults to the target resource's `title`. */
  label?: string;
}

/** Options of a `has_many` or `has_one` field. */
export interface HasAssociationOptions extends FieldOptions {
  /** The target resource name; defaults to the singular camelized field name (`comments` → `Comment`). */
  resource?: string;
  /** The foreign key column on the target table; defaults to `<this resource's singular key>_id`. */
  foreignKey?: string;
}

/** A field definition as a resource declares it. Build one with the `field` helpers. */
export interface FieldDefinition {
  readonly name: string;
  readonly type: FieldType;
  readonly options: Readonly<FieldOptions & NumberFieldOptions & BelongsToOptions & HasAssociationOptions>;
}
