import { didYouMeanHint } from '../errors/did-you-mean.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import type {
  BelongsToOptions,
  DecimalFieldOptions,
  FieldOptions,
  FileFieldOptions,
  HasAndBelongsToManyOptions,
  HasAssociationOptions,
  JsonFieldOptions,
  SelectFieldOptions,
  TagsFieldOptions,
} from './field-types.js';

/** Every key of `T`, listed once: the compiler refuses a list that misses one (the lists below stay in step with the option types). */
function keysOf<T>() {
  return <const K extends readonly (keyof T)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> })) => keys as readonly string[];
}

/** The options every field accepts (`FieldOptions`, with its validation rules). */
const COMMON = keysOf<FieldOptions>()(['hideOn', 'onlyOn', 'showOn', 'required', 'sortable', 'column', 'maxLength', 'minLength', 'min', 'max', 'format', 'in', 'unique', 'visible', 'readonly', 'default', 'confirm', 'writableBy', 'filterable']);

/**
 * The option keys each `field` builder accepts, by builder name. A builder not listed here takes
 * the common options only.
 */
export const FIELD_BUILDER_OPTION_KEYS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  belongsTo: keysOf<BelongsToOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'resource', 'foreignKey', 'label', 'includable']),
  hasMany: keysOf<HasAssociationOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'resource', 'foreignKey', 'includable']),
  hasOne: keysOf<HasAssociationOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'resource', 'foreignKey', 'includable']),
  hasAndBelongsToMany: keysOf<HasAndBelongsToManyOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'resource', 'joinTable', 'foreignKey', 'associationForeignKey', 'includable']),
  decimal: keysOf<DecimalFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'scale']),
  select: keysOf<SelectFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'options']),
  tags: keysOf<TagsFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'maxTags']),
  keyValue: keysOf<JsonFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'maxBytes']),
  json: keysOf<JsonFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'maxBytes']),
  file: keysOf<FileFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'maxBytes', 'accept']),
  files: keysOf<FileFieldOptions>()([...(COMMON as readonly (keyof FieldOptions)[]), 'maxBytes', 'accept']),
});

/** The option keys a built-in `field` builder accepts. */
export function fieldOptionKeys(builder: string): readonly string[] {
  return FIELD_BUILDER_OPTION_KEYS[builder] ?? COMMON;
}

/**
 * The message for an option key a builder does not take, with the closest known key.
 *
 * @example
 * unknownFieldOptionMessage('text', 'title', 'requried')
 * // 'field.text(\'title\'): unknown option "requried". Did you mean "required"? Fix: use one of hideOn, onlyOn, …'
 */
export function unknownFieldOptionMessage(builder: string, name: string, key: string): string {
  const known = fieldOptionKeys(builder);
  return `field.${builder}('${name}'): unknown option "${key}".${didYouMeanHint(key, known)} Fix: use one of ${known.join(', ')}.`;
}

/** Refuses, at definition, an option key the builder does not take (a typo would otherwise be silently ignored). */
export function checkFieldOptionKeys(builder: string, name: string, options: object): void {
  const known = fieldOptionKeys(builder);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new PanelConfigError(unknownFieldOptionMessage(builder, name, key));
  }
}
