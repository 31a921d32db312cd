import type { View, WriteChannel } from '../fields/field-types.js';
import type { CompiledField, CompiledResource } from '../resources/compiled-types.js';
import type { AuthorizationClient } from './authorization-client.js';
import { noticingRecord, PER_RECORD, probeRule } from './record-probe.js';

/** What `fieldAccess` takes: the resource, who acts, and what else narrows the fields. */
export interface FieldAccessInput {
  readonly resource: CompiledResource;
  /** The request's actor (what `currentUserMethod` returned; null without one). */
  readonly user: unknown;
  /** The authorization client in force, asked for `permittedAttributes`; none when policies are off. */
  readonly authorization?: AuthorizationClient | null | undefined;
  /** A field this request leaves out of every answer besides the field rules (Edition B: an association without a read grant). */
  readonly omit?: ((field: CompiledField) => boolean) | undefined;
  /**
   * Who the write comes through (default `'person'`: the screens, the panel-session path, a
   * script). On `'token'` and `'code'` a sensitive field is writable only when its `writableBy` names the path.
   */
  readonly channel?: WriteChannel | undefined;
}

/** A sensitive field: `confirm: true`, or a `password` field. */
export function isSensitiveField(field: CompiledField): boolean {
  return field.definition.options.confirm === true || field.kind.credential === true;
}

/** Whether a write through `channel` may set `field` as far as its sensitivity goes (one rule for the API, the screens and scripts). */
export function channelMayWrite(field: CompiledField, channel: WriteChannel): boolean {
  if (channel === 'person' || !isSensitiveField(field)) return true;
  return field.definition.options.writableBy?.includes(channel) === true;
}

/** The write actions a field list is asked for. */
export type FieldWriteAction = 'create' | 'update';

/**
 * Which fields one actor reads and writes on one resource, for one request: the single place
 * that combines the views (`hideOn` / `onlyOn` / `showOn`), each field's `visible` and
 * `readonly` rules, the policy's `permittedAttributes` and the request's own omissions.
 * Every path that answers or accepts fields asks it: the serializer, the write parser,
 * `sort_by`, traversal, and list modifiers (filters, search, `fields=`).
 */
export interface FieldAccess {
  readonly resource: CompiledResource;
  readonly user: unknown;
  /**
   * The fields of `view` this actor may read on some record, in declaration order: the
   * serializer's candidates (ask `shows` for each record).
   */
  readable(view: View): readonly CompiledField[];
  /**
   * Whether `field` (one of `readable(view)`) is answered on `record`. Constant time for a
   * field whose rule did not read the record; a record-dependent rule runs here, per record.
   */
  shows(field: CompiledField, view: View, record: Readonly<Record<string, unknown>>): boolean;
  /**
   * The fields of `view` this actor reads on every record: the only ones a list may sort,
   * filter, search or select by (a field visible on some records only would answer, through
   * the order or the filter, what the hidden records hold).
   */
  queryable(view: View): readonly CompiledField[];
  /**
   * The fields this actor may write on `action`: on the `new` / `edit` view, of a writable
   * type, visible, not `readonly`, writable through the request's `channel` (a sensitive field
   * only through the person's own session unless `writableBy` names the path), and named by
   * the policy's `permittedAttributes` when it answers. `record` is the stored row on update, null on create.
   */
  writable(action: FieldWriteAction, record: Readonly<Record<string, unknown>> | null): Promise<readonly CompiledField[]>;
  /**
   * The fields this actor may write on `action` on some record, judged without one: as
   * `writable`, except that a rule that reads the record (a `visible` or `readonly` rule, the
   * policy's `permittedAttributes`) counts as allowing, since only the record can answer it.
   * On create, exactly `writable('create', null)`. What one actor's OpenAPI document lists.
   */
  writableOnSome(action: FieldWriteAction): Promise<readonly CompiledField[]>;
}

/** A compiled view: the fields the actor may read, and those whose rule reads the record. */
interface ViewAccess {
  readonly readable: readonly CompiledField[];
  readonly perRecord: ReadonlySet<CompiledField>;
  readonly queryable: readonly CompiledField[];
}


/** Runs a `visible` rule without a record: its answer, or `PER_RECORD` when it reads the record (then it runs per record). */
function probeVisible(field: CompiledField, user: unknown, view: View): boolean | typeof PER_RECORD {
  const rule = field.definition.options.visible!;
  const answer = probeRule((record) => rule({ user, record, view }));
  return answer === PER_RECORD ? PER_RECORD : answer === true;
}

/** Whether a field's `readonly` rule keeps this actor from writing it. */
function isReadonly(field: CompiledField, user: unknown, record: Readonly<Record<string, unknown>> | null): boolean {
  const rule = field.definition.options.readonly;
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  return rule({ user, record }) === true;
}

const sharedByResource = new WeakMap<CompiledResource, Map<View, ViewAccess | null>>();

/**
 * Whether what an actor reads on `view` depends on nothing but the view: no field of it has a
 * `visible` rule, so no rule reads the user or the record (then a show may load the view's
 * columns alone: a rule could decide on any column).
 */
export function viewHasNoFieldRules(resource: CompiledResource, view: View): boolean {
  return sharedViewAccess(resource, view) !== null;
}

/**
 * A view's access when it depends on no user (no field of the view has a `visible` rule):
 * compiled once per resource and view and shared by every request; null when it does depend.
 */
function sharedViewAccess(resource: CompiledResource, view: View): ViewAccess | null {
  let byView = sharedByResource.get(resource);
  if (!byView) {
    byView = new Map();
    sharedByResource.set(resource, byView);
  }
  let shared = byView.get(view);
  if (shared === undefined) {
    const fields = resource.fieldsOn(view);
    const readable = Object.freeze([...fields]);
    shared = fields.some((field) => field.definition.options.visible !== undefined) ? null : Object.freeze({ readable, perRecord: new Set<CompiledField>(), queryable: readable });
    byView.set(view, shared);
  }
  return shared;
}

/**
 * Compiles the field rules of one resource for one actor, once per request: `visible` rules
 * that do not read the record are evaluated here, once per view asked; those that do are
 * evaluated per record by `shows`. Only `true` from a rule counts (like a policy method).
 * Every path that reads a view's fields for an actor asks the answer, never `fieldsOn`
 * directly (a test keeps it so).
 *
 * @example
 * const access = fieldAccess({ resource, user: Current.user, authorization: panel.authorization });
 * const sortable = access.queryable('index').filter((f) => f.sortable);
 * const writes = await access.writable('update', storedRow);
 */
export function fieldAccess(input: FieldAccessInput): FieldAccess {
  const { resource, user, authorization, omit } = input;
  const channel = input.channel ?? 'person';
  const views = new Map<View, ViewAccess>();

  const compile = (view: View): ViewAccess => {
    let compiled = views.get(view);
    if (compiled) return compiled;
    // Nothing to omit and no `visible` rule on the view: the answer is every field's, for every user, compiled once.
    if (omit === undefined) {
      const shared = sharedViewAccess(resource, view);
      if (shared) {
        views.set(view, shared);
        return shared;
      }
    }
    const readable: CompiledField[] = [];
    const perRecord = new Set<CompiledField>();
    for (const field of resource.fieldsOn(view)) {
      if (omit?.(field)) continue;
      if (field.definition.options.visible === undefined) {
        readable.push(field);
        continue;
      }
      const answer = probeVisible(field, user, view);
      if (answer === false) continue;
      readable.push(field);
      if (answer === PER_RECORD) perRecord.add(field);
    }
    compiled = Object.freeze({ readable: Object.freeze(readable), perRecord, queryable: Object.freeze(readable.filter((f) => !perRecord.has(f))) });
    views.set(view, compiled);
    return compiled;
  };

  const writableFields = async (action: FieldWriteAction, record: Readonly<Record<string, unknown>> | null): Promise<readonly CompiledField[]> => {
    const view: View = action === 'create' ? 'new' : 'edit';
    const fields = resource.fieldsOn(view).filter((field) => {
      if (!field.kind.writable || !channelMayWrite(field, channel)) return false;
      const visible = field.definition.options.visible;
      if (visible !== undefined && visible({ user, record, view }) !== true) return false;
      return !isReadonly(field, user, record);
    });
    const permitted = authorization?.permittedAttributes ? await authorization.permittedAttributes({ user, resource, action, record }) : undefined;
    if (permitted === undefined) return fields;
    // Anything but a list of names (a mistake) permits nothing rather than everything.
    const names = new Set(Array.isArray(permitted) ? permitted : []);
    return fields.filter((field) => names.has(field.name) || names.has(field.writeKey));
  };
  // On create there is no record to judge: the answer is the same for every create of this actor's request (a batch of a hundred asks once).
  let onCreate: Promise<readonly CompiledField[]> | undefined;
  return Object.freeze({
    resource,
    user,
    readable: (view: View) => compile(view).readable,
    queryable: (view: View) => compile(view).queryable,
    shows(field: CompiledField, view: View, record: Readonly<Record<string, unknown>>) {
      if (!compile(view).perRecord.has(field)) return true;
      return field.definition.options.visible!({ user, record, view }) === true;
    },
    writable(action: FieldWriteAction, record: Readonly<Record<string, unknown>> | null) {
      if (action !== 'create' || record !== null) return writableFields(action, record);
      onCreate ??= writableFields(action, null);
      return onCreate;
    },
    async writableOnSome(action: FieldWriteAction) {
      if (action === 'create') return this.writable('create', null);
      const view: View = 'edit';
      // Whether a rule lets some record through: its answer, or yes when it reads the record.
      const allows = (rule: (record: Record<string, unknown>) => boolean) => {
        const answer = probeRule(rule);
        return answer === PER_RECORD || answer;
      };
      const fields = resource.fieldsOn(view).filter((field) => {
        if (!field.kind.writable || !channelMayWrite(field, channel)) return false;
        const { visible } = field.definition.options;
        if (visible !== undefined && !allows((record) => visible({ user, record, view }) === true)) return false;
        return allows((record) => !isReadonly(field, user, record));
      });
      if (!authorization?.permittedAttributes) return fields;
      // The policy's answer may come later than its reading of the record: both are awaited.
      const probe = noticingRecord();
      let permitted: readonly string[] | undefined;
      try {
        permitted = await authorization.permittedAttributes({ user, resource, action, record: probe.record });
      } catch (error) {
        if (probe.read()) return fields;
        throw error;
      }
      if (permitted === undefined || probe.read()) return fields;
      const names = new Set(Array.isArray(permitted) ? permitted : []);
      return fields.filter((field) => names.has(field.name) || names.has(field.writeKey));
    },
  });
}
