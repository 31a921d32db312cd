import { PanelConfigError } from '../errors/panel-errors.js';
import type { FieldTypeModule } from '../resources/compiled-types.js';
import type { FieldType, View, FieldDefinition } from './field-types.js';
import { builtinFieldTypes } from './field-type-registry.js';

function list(value: View | readonly View[] | undefined): readonly View[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

function builtin(type: FieldType): FieldTypeModule {
  const kind = builtinFieldTypes.get(type);
  if (!kind) throw new PanelConfigError(`"${type}" is not a built-in field type (${[...builtinFieldTypes.keys()].join(', ')}).`);
  return kind;
}

/**
 * The views a field is visible on, from its type's default views and its `hideOn` / `onlyOn`
 * / `showOn`. `kind` is the field's type module; by default the built-in one of that name.
 */
export function fieldViews(definition: FieldDefinition, kind: FieldTypeModule = builtin(definition.type)): ReadonlySet<View> {
  const { onlyOn, hideOn, showOn } = definition.options;
  const views = new Set<View>(onlyOn === undefined ? kind.defaultViews : list(onlyOn));
  for (const view of list(showOn)) views.add(view);
  for (const view of list(hideOn)) views.delete(view);
  return views;
}

/** Whether a built-in field type's value comes from its own table's column. */
export function hasColumn(type: FieldType): boolean {
  return builtin(type).storage === 'column';
}

/**
 * Whether a write body sets a value of this built-in type into its column (`file` and `files`
 * are written too, by naming uploads, but they have no column).
 */
export function isWritableType(type: FieldType): boolean {
  const kind = builtin(type);
  return kind.writable && kind.storage === 'column';
}
