import type { FieldDefinition, View } from '../fields/field-types.js';
import { fieldViews } from '../fields/field-visibility.js';
import { builtinFieldTypes, type FieldTypeRegistry } from '../fields/field-type-registry.js';
import { resourceNameFromClassName, resourceNameProblem, resourceNaming, type ResourceNaming } from '../naming/resource-naming.js';
import type { ResourceClass } from './resource.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import { normalizeCountStrategy } from '../records/count-strategy.js';
import { normalizeIncludeLimits } from './include-limits.js';
import { recordKeyOf, type RecordKey } from './record-key.js';
import type { CompiledField, CompiledResource, ResourceHooks } from './compiled-types.js';

export type { CompiledField, CompiledResource, ResourceHooks } from './compiled-types.js';

type DraftField = Omit<CompiledField, 'labelColumn'> & { label: string | undefined };

/** A mistake in a field's per-actor rules (`visible`, `readonly`, `default`, `confirm`, `writableBy`), or undefined. */
function actorRulesProblem(options: FieldDefinition['options']): string | undefined {
  const { visible, readonly, default: byDefault, confirm, writableBy } = options;
  if (visible !== undefined && typeof visible !== 'function') return `visible must be a function ({ user, record, view }) => boolean, instead got ${JSON.stringify(visible)}.`;
  if (readonly !== undefined && typeof readonly !== 'function' && typeof readonly !== 'boolean') return `readonly must be true, false or a function ({ user, record }) => boolean, instead got ${JSON.stringify(readonly)}.`;
  if (byDefault !== undefined && typeof byDefault !== 'function') return `default must be a function ({ user }) => value, instead got ${JSON.stringify(byDefault)}. Fix: default: () => ${JSON.stringify(byDefault)}.`;
  if (confirm !== undefined && typeof confirm !== 'boolean') return `confirm must be true or false, instead got ${JSON.stringify(confirm)}.`;
  if (writableBy !== undefined && !(Array.isArray(writableBy) && writableBy.every((path) => path === 'token' || path === 'code'))) {
    return `writableBy must be a list of 'token' and 'code', instead got ${JSON.stringify(writableBy)}.`;
  }
  return undefined;
}

function compileField(definition: FieldDefinition, owner: ResourceNaming, fieldTypes: FieldTypeRegistry): DraftField {
  const { type, name, options } = definition;
  const kind = fieldTypes.get(type);
  if (!kind) {
    throw new PanelConfigError(
      `Resource ${owner.name}: the field "${name}" has the type "${type}", which no field type module registers. ` +
        `Fix: pass its module to createPanel({ fieldTypes: [<module made with defineFieldType>] }), or use one of: ${[...fieldTypes.keys()].join(', ')}.`,
    );
  }
  const problem = kind.checkOptions?.(definition) ?? actorRulesProblem(options);
  if (problem !== undefined) throw new PanelConfigError(`Resource ${owner.name}: the field "${name}": ${problem}`);
  const layout = kind.compile?.(definition, owner) ?? {};
  const column = layout.column ?? (kind.storage === 'column' ? (options.column ?? name) : undefined);
  return {
    name,
    type,
    kind,
    definition,
    views: fieldViews(definition, kind),
    column,
    writeKey: layout.writeKey ?? name,
    required: options.required === true,
    sortable: kind.sortable && column !== undefined && options.sortable !== false,
    filterable: kind.filter !== undefined && column !== undefined && options.filterable !== false,
    numeric: layout.numeric,
    target: layout.target,
    foreignKey: layout.foreignKey,
    label: layout.label,
    extra: Object.freeze({ ...layout.extra }),
  };
}

/**
 * The fields of a resource's `static search`, checked: each names a field of a searchable type
 * (text in a column) that is visible on show, once.
 */
function searchFields(resource: string, names: readonly string[] | undefined, fields: readonly CompiledField[]): readonly CompiledField[] {
  if (names === undefined) return Object.freeze([]);
  const fix = `Fix: static search = ['title', 'body'], naming text, textarea or markdown fields shown on show.`;
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) throw new PanelConfigError(`Resource ${resource}: static search must be an array of field names. ${fix}`);
  const searched = names.map((name) => {
    const found = fields.find((f) => f.name === name);
    if (found?.kind.searchable !== true || found.column === undefined || !found.views.has('show')) {
      throw new PanelConfigError(`Resource ${resource}: static search names "${name}", which is not a searchable field (a text, textarea or markdown field shown on show). ${fix}`);
    }
    return found;
  });
  if (new Set(names).size !== names.length) throw new PanelConfigError(`Resource ${resource}: static search names a field twice. ${fix}`);
  return Object.freeze(searched);
}

/**
 * An `id` field names the resource's key column and reads it as the key's type (its filter,
 * its schema); file fields need an integer or bigint key (attachments name their record by a
 * bigint).
 */
function checkKeyFields(resource: string, key: RecordKey, fields: CompiledField[]): void {
  for (const [index, field] of fields.entries()) {
    if (field.kind.recordKey && field.column !== key.column) {
      throw new PanelConfigError(`Resource ${resource}: the field "${field.name}" is an id field on the column "${field.column}", but the primary key is "${key.column}". Fix: field.id('${key.column}'), or static primaryKey = '${field.column}'.`);
    }
    if (field.kind.recordKey) fields[index] = { ...field, extra: Object.freeze({ ...field.extra, ownKey: key }) };
    if (field.kind.attachments !== undefined && key.type !== 'integer' && key.type !== 'bigint') {
      throw new PanelConfigError(`Resource ${resource}: the file field "${field.name}" needs an integer or bigint primary key (attachments name their record by a bigint); "${key.column}" is ${key.type}. Fix: keep files on a resource with an integer key, or leave the field out.`);
    }
  }
}

/**
 * Compiles every resource class once at boot, then resolves what depends on the other
 * resources (association targets and `belongs_to` labels). Mistakes fail here, naming the
 * resource, the field and the fix.
 */
export function compileResources(classes: readonly ResourceClass[], fieldTypes: FieldTypeRegistry = builtinFieldTypes): ReadonlyMap<string, CompiledResource> {
  const drafts = classes.map((resourceClass) => {
    const name = resourceClass.resourceName ?? resourceNameFromClassName(resourceClass.name);
    const nameProblem = resourceNameProblem(name);
    if (nameProblem) throw new PanelConfigError(`Resource class ${resourceClass.name || '(anonymous)'}: ${nameProblem}`);
    const naming = resourceNaming(name);
    const instance = new (resourceClass as unknown as new () => { fields(): FieldDefinition[] } & ResourceHooks)();
    const definitions = instance.fields();
    if (!Array.isArray(definitions)) {
      throw new PanelConfigError(`Resource ${name}: fields() must return an array of field definitions.`);
    }
    const seen = new Set<string>();
    for (const definition of definitions) {
      if (seen.has(definition.name)) {
        throw new PanelConfigError(`Resource ${name}: the field "${definition.name}" is declared twice. Fix: remove one of them.`);
      }
      seen.add(definition.name);
      // JSON.parse and the answers' serialization treat the key as the object's prototype, not as data.
      if (definition.name === '__proto__') {
        throw new PanelConfigError(`Resource ${name}: a field cannot be named "__proto__": JSON answers leave that key out and a body holding it is refused, so the API could never read nor write it. Fix: rename the column (and the field).`);
      }
    }
    const hooks: ResourceHooks = {
      ...(typeof instance.validate === 'function' ? { validate: instance.validate.bind(instance) } : {}),
      ...(typeof instance.beforeDestroy === 'function' ? { beforeDestroy: instance.beforeDestroy.bind(instance) } : {}),
    };
    const count = resourceClass.count === undefined ? undefined : normalizeCountStrategy(resourceClass.count, `${resourceClass.name || name}.count`);
    const key = recordKeyOf(name, resourceClass.primaryKey, resourceClass.primaryKeyType);
    return { resourceClass, name, naming, hooks, count, key, fields: definitions.map((d) => compileField(d, naming, fieldTypes)) };
  });

  const byName = new Map(drafts.map((draft) => [draft.name, draft]));
  if (byName.size !== drafts.length) {
    const names = drafts.map((d) => d.name);
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    throw new PanelConfigError(`Two resources are named ${duplicate}. Fix: give one of them a different class name or static resourceName.`);
  }
  const titleOf = (draft: (typeof drafts)[number]): string => {
    if (draft.resourceClass.title) return draft.resourceClass.title;
    const columns = new Set(draft.fields.map((f) => f.column));
    return columns.has('name') ? 'name' : columns.has('title') ? 'title' : draft.key.column;
  };

  const compiled = new Map<string, CompiledResource>();
  for (const draft of drafts) {
    const fields: CompiledField[] = draft.fields.map(({ label, ...rest }) => {
      if (rest.target === undefined) return { ...rest, labelColumn: undefined };
      const target = byName.get(rest.target);
      if (!target) {
        throw new PanelConfigError(
          `Resource ${draft.name}: the field "${rest.name}" points at the resource "${rest.target}", which does not exist. ` +
            `Fix: pass { resource: '<ResourceName>' } to ${rest.kind.builder ?? `defineField('${rest.type}', …)`}('${rest.name}', …).`,
        );
      }
      // A foreign key on this table (belongs_to) is answered with the target's label; the target's key says what an id of it is.
      return { ...rest, labelColumn: rest.column !== undefined ? (label ?? titleOf(target)) : undefined, extra: Object.freeze({ ...rest.extra, targetKey: target.key }) };
    });
    const columns = new Set(fields.map((f) => f.column));
    checkKeyFields(draft.name, draft.key, fields);
    const search = searchFields(draft.name, draft.resourceClass.search, fields);
    const byView = new Map<View, readonly CompiledField[]>();
    const resource: CompiledResource = Object.freeze({
      naming: draft.naming,
      name: draft.name,
      resourceClass: draft.resourceClass,
      table: draft.resourceClass.table ?? draft.naming.routeKey,
      primaryKey: draft.key.column,
      key: draft.key,
      titleColumn: titleOf(draft),
      hooks: Object.freeze(draft.hooks),
      fields: Object.freeze(fields),
      fieldsByName: new Map(fields.map((f) => [f.name, f])),
      defaultOrder:
        draft.resourceClass.defaultOrder ??
        (columns.has('created_at') ? { column: 'created_at', direction: 'desc' as const } : { column: draft.key.column, direction: 'desc' as const }),
      count: draft.count,
      search,
      include: normalizeIncludeLimits(draft.resourceClass.include, `${draft.resourceClass.name || draft.name}.include`),
      fieldsOn(view: View) {
        let list = byView.get(view);
        if (!list) {
          list = Object.freeze(fields.filter((f) => f.views.has(view)));
          byView.set(view, list);
        }
        return list;
      },
    });
    compiled.set(draft.name, resource);
  }
  return compiled;
}

/**
 * The fields a write on a view may set for some actor: visible on that view, of a writable
 * type, and not `readonly: true`. Which of them one actor writes is `fieldAccess`'s answer.
 */
export function writableFields(resource: CompiledResource, view: 'new' | 'edit'): readonly CompiledField[] {
  return resource.fieldsOn(view).filter((f) => f.kind.writable && f.definition.options.readonly !== true);
}
