import { VIEWS, type FieldType, type View, type FieldDefinition } from './field-types.js';

/**
 * The views each field type is on before `hideOn` / `onlyOn` / `showOn`: the id and the
 * read-only kinds (associations counted from the other side, files) stay off the forms.
 */
const DEFAULT_VIEWS: Record<FieldType, readonly View[]> = {
  id: ['index', 'show'],
  text: VIEWS,
  number: VIEWS,
  boolean: VIEWS,
  date: VIEWS,
  datetime: VIEWS,
  belongs_to: VIEWS,
  has_many: ['index', 'show'],
  has_one: ['index', 'show'],
  file: ['index', 'show'],
  files: ['index', 'show'],
};

function list(value: View | readonly View[] | undefined): readonly View[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

/** The views a field is visible on, from its type's defaults and its `hideOn` / `onlyOn` / `showOn`. */
export function fieldViews(definition: FieldDefinition): ReadonlySet<View> {
  const { onlyOn, hideOn, showOn } = definition.options;
  const views = new Set<View>(onlyOn === undefined ? DEFAULT_VIEWS[definition.type] : list(onlyOn));
  for (const view of list(showOn)) views.add(view);
  for (const view of list(hideOn)) views.delete(view);
  return views;
}

/** Whether a field's value comes from its own table's column. */
export function hasColumn(type: FieldType): boolean {
  return type !== 'has_many' && type !== 'has_one' && type !== 'file' && type !== 'files';
}

/** Whether a field of this type can be written through the API. */
export function isWritableType(type: FieldType): boolean {
  return hasColumn(type) && type !== 'id';
}
