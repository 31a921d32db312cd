import { PanelConfigError } from '../errors/panel-errors.js';
import type { FieldTypeModule } from '../resources/compiled-types.js';
import { belongsToField } from './types/belongs-to-field.js';
import { booleanField } from './types/boolean-field.js';
import { dateField } from './types/date-field.js';
import { datetimeField } from './types/datetime-field.js';
import { fileField, filesField } from './types/file-field.js';

import { hasManyField } from './types/has-many-field.js';
import { hasOneField } from './types/has-one-field.js';
import { idField } from './types/id-field.js';
import { numberField } from './types/number-field.js';
import { bigintField } from './types/bigint-field.js';
import { textField } from './types/text-field.js';
import { selectField } from './types/select-field.js';
import { textareaField } from './types/textarea-field.js';
import { markdownField } from './types/markdown-field.js';
import { passwordField } from './types/password-field.js';
import { tagsField } from './types/tags-field.js';
import { keyValueField } from './types/key-value-field.js';
import { jsonField } from './types/json-field.js';
import { hasAndBelongsToManyField } from './types/has-and-belongs-to-many-field.js';

/** The field types every panel knows. A new built-in type is one module and one line here. */
export const BUILTIN_FIELD_TYPES: readonly FieldTypeModule[] = Object.freeze([
  idField,
  textField,
  numberField,
  bigintField,
  booleanField,
  dateField,
  datetimeField,
  belongsToField,
  hasManyField,
  hasOneField,
  fileField,
  filesField,
  selectField,
  textareaField,
  markdownField,
  passwordField,
  tagsField,
  keyValueField,
  jsonField,
  hasAndBelongsToManyField,
]);

/**
 * The built-in type module a `field.<builder>` call declares (`belongsTo` → `belongs_to`), for
 * tools that read resource files without running them (the CLI's checks); undefined for a
 * builder no module names as its own (`decimal` shares `number` with `integer`).
 */
export function builtinFieldTypeOfBuilder(builder: string): FieldTypeModule | undefined {
  return BUILTIN_FIELD_TYPES.find((kind) => kind.builder === `field.${builder}`);
}

/** Field type modules by type name. */
export type FieldTypeRegistry = ReadonlyMap<string, FieldTypeModule>;

/** The registry of the built-in types alone. */
export const builtinFieldTypes: FieldTypeRegistry = new Map(BUILTIN_FIELD_TYPES.map((kind) => [kind.name, kind]));

/**
 * The built-in types plus an app's own (`createPanel({ fieldTypes })`). A type name is
 * registered once: an app type that reuses a built-in name is refused at boot rather than
 * silently changing every field of that type.
 */
export function fieldTypeRegistry(extra: readonly FieldTypeModule[] = []): FieldTypeRegistry {
  if (!Array.isArray(extra)) throw new PanelConfigError('createPanel: fieldTypes must be an array of field type modules made with defineFieldType({ … }).');
  const registry = new Map(builtinFieldTypes);
  for (const kind of extra) {
    if (typeof kind?.name !== 'string' || typeof kind.serialize !== 'function') {
      throw new PanelConfigError(`createPanel: fieldTypes holds ${JSON.stringify(kind)}, which is not a field type module. Fix: make each with defineFieldType({ … }).`);
    }
    if (registry.has(kind.name)) {
      throw new PanelConfigError(`createPanel: the field type "${kind.name}" is registered twice. Fix: give the app's type another name.`);
    }
    registry.set(kind.name, kind);
  }
  return registry;
}
