import type { FieldDefinition, FieldType, View } from '../fields/field-types.js';
import { fieldViews, hasColumn, isWritableType } from '../fields/field-visibility.js';
import { resourceNameFromAssociation, resourceNameFromClassName, resourceNaming, type ResourceNaming } from '../naming/resource-naming.js';
import type { DefaultOrder, ResourceClass } from './resource.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import type { DestroyContext, ValidationContext } from '../validation/validate-in-transaction.js';

/** A field with every default resolved: views, column, association target and keys. */
export interface CompiledField {
  readonly name: string;
  readonly type: FieldType;
  readonly definition: FieldDefinition;
  readonly views: ReadonlySet<View>;
  /** The column on this resource's table, for fields stored there (for `belongs_to`, the foreign key). */
  readonly column: string | undefined;
  /** The key a write body uses for this field (`author_id` for a `belongs_to` named `author`). */
  readonly writeKey: string;
  readonly required: boolean;
  readonly sortable: boolean;
  readonly numeric: 'integer' | 'decimal' | undefined;
  /** For associations: the target resource name. */
  readonly target: string | undefined;
  /** For `has_many` / `has_one`: the foreign key column on the target's table. */
  readonly foreignKey: string | undefined;
  /** For `belongs_to`: the label column on the target's table, resolved once every resource is known. */
  readonly labelColumn: string | undefined;
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
  readonly primaryKey: 'id';
  readonly titleColumn: string;
  readonly fields: readonly CompiledField[];
  readonly fieldsByName: ReadonlyMap<string, CompiledField>;
  readonly defaultOrder: DefaultOrder;
  /** The resource's record hooks, bound to one instance made at boot. */
  readonly hooks: ResourceHooks;
  /** The fields visible on a view, in declaration order. */
  fieldsOn(view: View): readonly CompiledField[];
}

function compileField(definition: FieldDefinition, owner: ResourceNaming): Omit<CompiledField, 'labelColumn'> & { label: string | undefined } {
  const { type, name, options } = definition;
  const column = type === 'belongs_to' ? (options.foreignKey ?? `${name}_id`) : hasColumn(type) ? (options.column ?? name) : undefined;
  const isAssociation = type === 'belongs_to' || type === 'has_many' || type === 'has_one';
  return {
    name,
    type,
    definition,
    views: fieldViews(definition),
    column,
    writeKey: type === 'belongs_to' ? column! : name,
    required: options.required === true,
    sortable: hasColumn(type) && type !== 'belongs_to' && options.sortable !== false,
    numeric: type === 'number' ? (options.numeric ?? 'integer') : undefined,
    target: isAssociation ? (options.resource ?? resourceNameFromAssociation(name)) : undefined,
    foreignKey: type === 'has_many' || type === 'has_one' ? (options.foreignKey ?? `${owner.singularKey}_id`) : undefined,
    label: type === 'belongs_to' ? options.label : undefined,
  };
}

/**
 * Compiles every resource class once at boot, then resolves what depends on the other
 * resources (association targets and `belongs_to` labels). Mistakes fail here, naming the
 * resource, the field and the fix.
 */
export function compileResources(classes: readonly ResourceClass[]): ReadonlyMap<string, CompiledResource> {
  const drafts = classes.map((resourceClass) => {
    const name = resourceClass.resourceName ?? resourceNameFromClassName(resourceClass.name);
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
    }
    const hooks: ResourceHooks = {
      ...(typeof instance.validate === 'function' ? { validate: instance.validate.bind(instance) } : {}),
      ...(typeof instance.beforeDestroy === 'function' ? { beforeDestroy: instance.beforeDestroy.bind(instance) } : {}),
    };
    return { resourceClass, name, naming, hooks, fields: definitions.map((d) => compileField(d, naming)) };
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
    return columns.has('name') ? 'name' : columns.has('title') ? 'title' : 'id';
  };

  const compiled = new Map<string, CompiledResource>();
  for (const draft of drafts) {
    const fields: CompiledField[] = draft.fields.map(({ label, ...rest }) => {
      if (rest.target === undefined) return { ...rest, labelColumn: undefined };
      const target = byName.get(rest.target);
      if (!target) {
        throw new PanelConfigError(
          `Resource ${draft.name}: the field "${rest.name}" points at the resource "${rest.target}", which does not exist. ` +
            `Fix: pass { resource: '<ResourceName>' } to field.${rest.type === 'belongs_to' ? 'belongsTo' : rest.type === 'has_many' ? 'hasMany' : 'hasOne'}('${rest.name}', …).`,
        );
      }
      return { ...rest, labelColumn: rest.type === 'belongs_to' ? (label ?? titleOf(target)) : undefined };
    });
    const columns = new Set(fields.map((f) => f.column));
    const byView = new Map<View, readonly CompiledField[]>();
    const resource: CompiledResource = Object.freeze({
      naming: draft.naming,
      name: draft.name,
      resourceClass: draft.resourceClass,
      table: draft.resourceClass.table ?? draft.naming.routeKey,
      primaryKey: 'id' as const,
      titleColumn: titleOf(draft),
      hooks: Object.freeze(draft.hooks),
      fields: Object.freeze(fields),
      fieldsByName: new Map(fields.map((f) => [f.name, f])),
      defaultOrder:
        draft.resourceClass.defaultOrder ??
        (columns.has('created_at') ? { column: 'created_at', direction: 'desc' as const } : { column: 'id', direction: 'desc' as const }),
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

/** The fields a write on a view may set: visible on that view and stored in a column. */
export function writableFields(resource: CompiledResource, view: 'new' | 'edit'): readonly CompiledField[] {
  return resource.fieldsOn(view).filter((f) => isWritableType(f.type));
}
