import { PanelConfigError } from '../errors/panel-errors.js';
import type { FieldTypeModule } from '../resources/compiled-types.js';

/**
 * What `defineFieldType` takes: a `FieldTypeModule` whose usual members may be left out —
 * `defaultViews` (every view), `storage` (`'column'`), `writable` (whether it has `parse`) and
 * `sortable` (false).
 */
export type FieldTypeDefinition = Omit<FieldTypeModule, 'defaultViews' | 'storage' | 'writable' | 'sortable'> &
  Partial<Pick<FieldTypeModule, 'defaultViews' | 'storage' | 'writable' | 'sortable'>>;
import { VIEWS } from './field-types.js';

const REQUIRED_METHODS = ['serialize', 'schema'] as const;

/**
 * Declares a field type module, with the defaults of `FieldTypeDefinition` filled in, checked
 * and frozen. A mistake in it is a boot error naming what is missing. See `FieldTypeModule`
 * for what each member does.
 *
 * @example
 * export const ratingField = defineFieldType({ name: 'rating', sortable: true, serialize, schema, parse });
 * const panel = await createPanel({ database, fieldTypes: [ratingField] });
 */
export function defineFieldType(definition: FieldTypeDefinition): FieldTypeModule {
  const module: FieldTypeModule = {
    defaultViews: VIEWS,
    storage: 'column',
    writable: typeof definition?.parse === 'function',
    sortable: false,
    ...definition,
  };
  const name = (module as { name?: unknown })?.name;
  const what = `Field type ${typeof name === 'string' ? `"${name}"` : JSON.stringify(name)}`;
  if (typeof name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new PanelConfigError(`${what}: name must be a snake_case identifier such as "rating". Fix: set name in defineFieldType({ name, … }).`);
  }
  for (const method of REQUIRED_METHODS) {
    if (typeof module[method] !== 'function') throw new PanelConfigError(`${what}: ${method} must be a function. Fix: add ${method}() to its module.`);
  }
  if (!Array.isArray(module.defaultViews) || module.defaultViews.some((view) => !VIEWS.includes(view))) {
    throw new PanelConfigError(`${what}: defaultViews must be an array of ${VIEWS.join(', ')}.`);
  }
  if (module.storage !== 'column' && module.storage !== 'none') {
    throw new PanelConfigError(`${what}: storage must be 'column' (a column of the resource's table) or 'none' (loaded by select()).`);
  }
  if (module.storage === 'none' && typeof module.select !== 'function') {
    throw new PanelConfigError(`${what}: a type with storage 'none' loads its value with select(). Fix: add select(), or use storage 'column'.`);
  }
  // A type of attachments is written by naming uploads (its `parse` reads upload ids), with no column of its own.
  if (module.writable && ((module.storage !== 'column' && module.attachments === undefined) || typeof module.parse !== 'function')) {
    throw new PanelConfigError(`${what}: a writable type is stored in a column and parses its write values. Fix: set storage 'column' and add parse(), or set writable: false.`);
  }
  return Object.freeze(module);
}
