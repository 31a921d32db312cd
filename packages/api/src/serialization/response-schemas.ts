import { BUILTIN_FIELD_TYPES, recordSchema, type CompiledResource, type JsonSchema, type View } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import { ResourcesController } from '../controller/resources-controller.js';

/** A method of the runtime controller an app may override. */
type ControllerMethod = keyof ResourcesController;

/** The methods whose default implementations produce the bodies the schemas describe. */
const SERIALIZING_METHODS: readonly ControllerMethod[] = ['serializeRecords', 'serializeRecord', 'serializeFieldValue', 'render'];
const SUCCESS_CALLBACKS: Readonly<Record<ActionName, readonly ControllerMethod[]>> = {
  index: [],
  show: [],
  create: ['createSuccessAction'],
  update: ['updateSuccessAction'],
  destroy: ['destroySuccessAction'],
  related: [],
  batch: [],
  upload: [],
};
const FAIL_CALLBACKS: Readonly<Record<ActionName, readonly ControllerMethod[]>> = {
  index: [],
  show: [],
  create: ['createFailAction'],
  update: ['updateFailAction'],
  destroy: ['destroyFailAction'],
  related: [],
  batch: [],
  upload: [],
};

const BUILTIN = new Set(BUILTIN_FIELD_TYPES);

/**
 * Whether a controller class answers one of `methods` with its own implementation (its own, or
 * a class's between it and `ResourcesController`) instead of the runtime's default.
 */
function overrides(controller: typeof ResourcesController, methods: readonly ControllerMethod[]): boolean {
  return methods.some((method) => controller.prototype[method] !== ResourcesController.prototype[method]);
}

/**
 * A record on a view, for the response serializer: the fields' read schemas, except that an
 * app's own field type is answered as it serializes, whatever its schema says (its schema is
 * its author's, the serializer must not drop what the schema forgot).
 */
function responseRecord(resource: CompiledResource, view: View): JsonSchema {
  const { properties } = recordSchema(resource, view) as { properties: Record<string, JsonSchema> };
  const loose = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const field = resource.fieldsByName.get(name)!;
      if (!BUILTIN.has(field.kind)) return [name, {}];
      const include = field.kind.association?.include;
      return [name, include === undefined ? schema : withIncluded(schema, include.kind)];
    }),
  );
  return { type: 'object', properties: loose, additionalProperties: false };
}

/**
 * An association value's schema with what `include` adds (`record`; `records`, `has_more`,
 * `next`), each embedded record serialized as it is (its fields follow `include_fields`).
 */
function withIncluded(schema: JsonSchema, kind: 'one' | 'many'): JsonSchema {
  const added: Record<string, JsonSchema> = kind === 'one' ? { record: {} } : { records: { type: 'array', items: {} }, has_more: { type: 'boolean' }, next: { type: ['string', 'null'] } };
  const properties = (schema as { properties?: Record<string, JsonSchema> }).properties ?? {};
  return { ...schema, properties: { ...properties, ...added } };
}

const PAGINATION: JsonSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    total_pages: { type: 'integer' },
    total_count: { type: 'integer' },
    has_next_page: { type: 'boolean' },
    has_prev_page: { type: 'boolean' },
    // Cursor mode (`pagination=cursor`): the serializer keeps either envelope's keys.
    next_cursor: { type: ['string', 'null'] },
    prev_cursor: { type: ['string', 'null'] },
    total_count_estimated: { type: 'boolean' },
  },
  additionalProperties: false,
};

/** `{ "error": "<message>" }`; a `rescueFrom` handler may add keys, which are kept. */
const ERROR_ENVELOPE: JsonSchema = { type: 'object', properties: { error: { type: 'string' } }, additionalProperties: true };

/** `{ "errors": { <field>: [<message>] }, "message" }`. */
const VALIDATION_ENVELOPE: JsonSchema = {
  type: 'object',
  properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, message: { type: 'string' } },
  additionalProperties: true,
};

/** The success body of an action, from the resource's fields on the action's view. */
function successSchema(resource: CompiledResource, action: ActionName): { status: number; schema: JsonSchema } {
  switch (action) {
    case 'index':
      return { status: 200, schema: { type: 'object', properties: { records: { type: 'array', items: responseRecord(resource, 'index') }, pagination: PAGINATION }, additionalProperties: false } };
    case 'destroy':
      return { status: 200, schema: { type: 'object', properties: { message: { type: 'string' } }, additionalProperties: false } };
    default:
      return { status: action === 'create' ? 201 : 200, schema: { type: 'object', properties: { record: responseRecord(resource, 'show') }, additionalProperties: false } };
  }
}

/**
 * The response schemas of one route, by status, for Fastify to compile a serializer from:
 * the success body derived from the resource's fields on the action's view, and the error
 * envelopes. A controller that overrides the action, a serialization hook or a result callback
 * may answer any shape, so its route keeps the generic serializer for that body (the schemas
 * never change what a client receives).
 */
export function responseSchemas(resource: CompiledResource, action: ActionName, controller: typeof ResourcesController): Record<number, JsonSchema> {
  const schemas: Record<number, JsonSchema> = { 400: ERROR_ENVELOPE, 401: ERROR_ENVELOPE, 404: ERROR_ENVELOPE, 413: ERROR_ENVELOPE, 415: ERROR_ENVELOPE, 500: ERROR_ENVELOPE };
  // A batch answers each operation's own body in its results (200 and 422 alike): serialized as it is.
  if (action === 'batch' || action === 'upload') return schemas;
  if (!overrides(controller, [action, ...SERIALIZING_METHODS, ...SUCCESS_CALLBACKS[action]])) {
    const { status, schema } = successSchema(resource, action);
    schemas[status] = schema;
  }
  if (!overrides(controller, ['render', ...FAIL_CALLBACKS[action]])) schemas[422] = VALIDATION_ENVELOPE;
  return schemas;
}
