import { recordSchema, writeSchema, type CompiledResource, type JsonSchema, type View } from '@panel/core';
import { includableAssociation } from '../querying/include-modifier.js';
import { MAX_INCLUDE_PER_PAGE } from '../querying/include-params.js';
import type { DocumentActor } from './document-actor.js';

/** A served resource by name; undefined when this API version does not serve it. */
export type ResolveResource = (name: string) => CompiledResource | undefined;

/** The `$ref` of a component schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Component names of a resource's schemas: stable, from the resource name (`BlogPost_index`, `BlogPostCreate`). */
export const schemaNames = {
  record: (resource: CompiledResource, view: View) => `${resource.name}_${view}`,
  related: (resource: CompiledResource) => `${resource.name}_related`,
  included: (resource: CompiledResource) => `${resource.name}_included`,
  write: (resource: CompiledResource, view: 'new' | 'edit') => `${resource.name}${view === 'new' ? 'Create' : 'Update'}`,
};

/** The response headers the operations name by `$ref` (`#/components/headers/<name>`). */
export const SHARED_HEADERS: Readonly<Record<string, JsonSchema>> = Object.freeze({
  PanelTotalCount: {
    description:
      "Sent only under an opt-in count strategy (the panel's `count` option, or a resource's `static count`) when `pagination.total_count` is not an exact count made for this request: `estimate` (the planner's estimate of the rows) or `cached` (an exact count made at most the strategy's `maxAgeMs` earlier by the same process). Absent, the total is exact.",
    schema: { type: 'string', enum: ['estimate', 'cached'] },
  },
});

/** The schemas every document shares: the envelopes of the error registry and the pagination block. */
export const SHARED_SCHEMAS: Readonly<Record<string, JsonSchema>> = Object.freeze({
  Pagination: {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1 },
      per_page: { type: 'integer', minimum: 1 },
      total_pages: { type: 'integer', minimum: 1 },
      total_count: { type: 'integer', minimum: 0 },
      has_next_page: { type: 'boolean' },
      has_prev_page: { type: 'boolean' },
    },
    required: ['page', 'per_page', 'total_pages', 'total_count', 'has_next_page', 'has_prev_page'],
    additionalProperties: false,
  },
  CursorPagination: {
    description: 'Cursor mode (`pagination=cursor`, `after`, `before`): the next and previous pages by cursor; a count only with `include_total`.',
    type: 'object',
    properties: {
      per_page: { type: 'integer', minimum: 1 },
      has_next_page: { type: 'boolean' },
      has_prev_page: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'], description: 'The `after` of the next page; null on the last.' },
      prev_cursor: { type: ['string', 'null'], description: 'The `before` of the previous page; null on the first.' },
      total_count: { type: 'integer', minimum: 0 },
      total_count_estimated: { type: 'boolean' },
    },
    required: ['per_page', 'has_next_page', 'has_prev_page', 'next_cursor', 'prev_cursor'],
    additionalProperties: false,
  },
  Error: {
    description: '`{ "error": "<message>" }`; a `rescueFrom` handler may add keys (a 403 confirmation adds `confirm_path`).',
    type: 'object',
    properties: { error: { type: 'string' }, confirm_path: { type: 'string' } },
    required: ['error'],
    additionalProperties: true,
  },
  ValidationError: {
    description: 'The record is invalid: messages by field (`base` for the record as a whole).',
    type: 'object',
    properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, message: { type: 'string' } },
    required: ['errors', 'message'],
    additionalProperties: true,
  },
  DestroyResult: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false },
  HealthStatus: { type: 'object', properties: { status: { type: 'string', const: 'ok' } }, required: ['status'], additionalProperties: false },
});

/** The description of a field a `visible` rule may leave out of an answer. */
export const MAY_BE_OMITTED = 'May be omitted: a `visible` rule decides which actors read this field.';

/**
 * A record's schema on a view, from the field types (`recordSchema`). A field with a
 * `visible` rule (the one decision `fieldAccess` makes per actor) is not required and says it
 * may be omitted. In Edition B a field the token may not see is left out of the record, so
 * association fields are not required. One actor's document (`actor`) has the fields that
 * actor reads, and only those a rule shows on some records say they may be omitted.
 */
function viewSchema(resource: CompiledResource, view: View, gated: boolean, resolve: ResolveResource | undefined, actor: DocumentActor | undefined): JsonSchema {
  const fields = actor?.access(resource).readable(view);
  const schema = withIncludedShapes(resource, recordSchema(resource, view, fields) as { properties: Record<string, JsonSchema>; required: string[] }, resolve);
  const ruled = new Set(actor ? [...actor.perRecord(resource, view)].map((field) => field.name) : resource.fields.filter((field) => field.definition.options.visible !== undefined).map((field) => field.name));
  const optional = new Set([...ruled, ...(gated && !actor ? resource.fields.filter((field) => field.target !== undefined).map((field) => field.name) : [])]);
  if (optional.size === 0) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, ruled.has(name) ? { ...property, description: MAY_BE_OMITTED } : property]));
  return { ...schema, properties, required: schema.required.filter((name) => !optional.has(name)) };
}

/**
 * What `include` adds to the association values of a record's schema, typed: a to-one value's
 * `record` (the target's embedded record, or null), a to-many value's `records`, `has_more` and
 * `next`; each embedded record is the target's `_included` schema. Only for an association
 * `include` may name whose target this version serves (`resolve`); the keys are optional, as
 * they come only with `include`.
 */
function withIncludedShapes<T extends { properties: Record<string, JsonSchema> }>(resource: CompiledResource, schema: T, resolve: ResolveResource | undefined): T {
  if (resolve === undefined) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const field = resource.fieldsByName.get(name);
      const target = field !== undefined && includableAssociation(field) ? resolve(field.target!) : undefined;
      if (field === undefined || target === undefined) return [name, property];
      const embedded = ref(schemaNames.included(target));
      const added: Record<string, JsonSchema> =
        field.kind.association!.include!.kind === 'one'
          ? { record: { description: `With \`include\`: the ${target.naming.humanName} record, or null when the key is null, the record is gone or outside what the caller may read.`, anyOf: [embedded, { type: 'null' }] } }
          : {
              records: { description: `With \`include\`: the first page of the ${target.naming.humanName} records.`, type: 'array', items: embedded, maxItems: MAX_INCLUDE_PER_PAGE },
              has_more: { description: 'With `include`: whether more records follow this page.', type: 'boolean' },
              next: { description: 'With `include`: the URL of the next page in cursor mode; null on the last page or when no URL the caller may call expresses it.', type: ['string', 'null'] },
            };
      const own = (property as { properties?: Record<string, JsonSchema> }).properties ?? {};
      return [name, { ...property, properties: { ...own, ...added } }];
    }),
  );
  return { ...schema, properties };
}

/**
 * The component schemas of one resource: its records on index and show, the related view, a
 * record embedded by `include` (its show fields, none required: `include_fields` picks them),
 * and its create and update attributes. `resolve` (the served resources) types the included
 * shapes of its association values; `actor` narrows every schema to what one actor reads and writes.
 */
export function resourceSchemas(resource: CompiledResource, gated: boolean, resolve?: ResolveResource, actor?: DocumentActor): Record<string, JsonSchema> {
  const index = viewSchema(resource, 'index', gated, resolve, actor);
  const { required: _required, ...related } = index as { required?: unknown };
  const show = viewSchema(resource, 'show', gated, resolve, actor);
  const { required: _shown, ...included } = show as { required?: unknown };
  return {
    [schemaNames.record(resource, 'index')]: index,
    [schemaNames.record(resource, 'show')]: show,
    [schemaNames.included(resource)]: { ...included, description: `A ${resource.naming.humanName} record embedded by \`include\`: the fields \`include_fields\` names (default its index fields the caller reads), as its show answers the caller.` },
    // A record reached through another's association (Edition B): its index fields, an association the token may not see left out.
    [schemaNames.related(resource)]: related,
    [schemaNames.write(resource, 'new')]: actorWriteSchema(resource, 'new', actor),
    [schemaNames.write(resource, 'edit')]: actorWriteSchema(resource, 'edit', actor),
  };
}

/** A write body's attributes: every field some actor may write, or those of one actor (`actor`). */
export function actorWriteSchema(resource: CompiledResource, view: 'new' | 'edit', actor: DocumentActor | undefined): JsonSchema {
  return writeSchema(resource, view, actor?.writable(resource, view));
}

/** Turns a Fastify route schema written the OpenAPI 3.0 way (`nullable: true`) into JSON Schema 2020-12 (`type: [..., 'null']`). */
export function withoutNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNullable);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]));
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (nullable === true && Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  return out;
}
