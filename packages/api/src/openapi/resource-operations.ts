import type { CompiledResource, JsonSchema, Panel } from '@panel/core';
import { camelize } from '@panel/core';
import { beforeActionsFor, declaresRescues } from '../controller/callback-chain.js';
import { PublicResourcesController } from '../controller/public-resources-controller.js';
import { routeModifiers, type RouteEntry } from '../routing/draw-routes.js';
import { responseSchemas } from '../serialization/response-schemas.js';
import { actorWriteSchema, ref, schemaNames } from './openapi-components.js';
import { UPLOAD_ANSWER, UPLOAD_BODY } from './upload-schemas.js';
import { exampleOf } from './openapi-examples.js';
import { actionParameters } from '../querying/list-query.js';
import type { ListModifier, QueryParameter } from '../querying/list-modifier.js';
import { defaultOrder } from '../querying/sort-modifier.js';
import type { OpenApiObject } from './openapi-options.js';
import type { DocumentActor } from './document-actor.js';

/** What the operations of one document share. */
export interface OperationContext {
  readonly panel: Pick<Panel, 'resource'> & { readonly config: { readonly perPage: number; readonly maxPerPage: number } };
  /** The mount's default query parameters (`defaults:`): a default `per_page` is the documented default. */
  readonly defaults: Readonly<Record<string, string>>;
  /** The mount's list modifiers (default `LIST_MODIFIERS`); a route's controller may list its own. */
  readonly listModifiers?: readonly ListModifier[] | undefined;
  /** A gated mount (an extension's gate: Edition B): an authenticated route may answer 403, an association may be left out. */
  readonly gated?: boolean | undefined;
  /** The resources of this version the mount's gate guards (Edition B): `publicTargetOmits`. */
  readonly guarded?: ReadonlySet<string> | undefined;
  /** A resource this version serves, by name (undefined for one it does not): `include`'s targets. */
  readonly resolve?: ((name: string) => CompiledResource | undefined) | undefined;
  /** The security requirements of an authenticated route. */
  readonly security: readonly Record<string, string[]>[];
  /** One actor's document: the fields and parameters as that actor may use them; undefined for the document every actor reads. */
  readonly actor?: DocumentActor | undefined;
  /** The mount's `requireIfMatch`: a batch's update or delete without `if_match` then answers 428 (as it does under a controller's own). */
  readonly requireIfMatch?: boolean | undefined;
}

const JSON_TYPE = 'application/json';
const json = (schema: JsonSchema) => ({ [JSON_TYPE]: { schema } });
/** The header an index page carries when its total is not an exact count (`TOTAL_COUNT_HEADER`). */
const TOTAL_COUNT = { 'Panel-Total-Count': { $ref: '#/components/headers/PanelTotalCount' } };
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 1 } } };

/** The header a cursor page carries (`cursor-pages.ts`), and the one an answer with `include` carries (`INCLUDE_COST_HEADER`). */
const LINK = { description: 'On a cursor page (`pagination=cursor`): the next and previous pages, `<…&after=…>; rel="next", <…&before=…>; rel="prev"` (RFC 8288), when there are any.', schema: { type: 'string' } };
const INCLUDE_COST = { description: 'With `include`: the most records the included paths may embed for this answer (its cost against the budget).', schema: { type: 'integer', minimum: 0 } };

/** A success answer with the headers its query parameters may make the server send: `Link` where `pagination` is taken, `Include-Cost` where `include` is. */
function withQueryHeaders(answer: OpenApiObject, parameters: readonly OpenApiObject[]): OpenApiObject {
  const takes = (name: string) => parameters.some((parameter) => parameter.name === name);
  const headers = { ...(answer.headers as OpenApiObject | undefined), ...(takes('pagination') ? { Link: LINK } : {}), ...(takes('include') ? { 'Include-Cost': INCLUDE_COST } : {}) };
  return Object.keys(headers).length === 0 ? answer : { ...answer, headers };
}

/** The answers of the error registry (`error-reply.ts`), by status. */
const ANSWERS: Readonly<Record<number, OpenApiObject>> = {
  302: { description: 'A policy denied the action (Edition A): a redirect to the panel root, with a flash cookie.', headers: { Location: { description: "The panel's root path.", required: true, schema: { type: 'string' } } } },
  400: { description: 'A query parameter or the body is malformed (the message says which).', content: json(ref('Error')) },
  401: {
    description: 'Not authenticated.',
    headers: { 'WWW-Authenticate': { description: 'The schemes the mount accepts in the Authorization header (`ApiKey realm="/api"`, `Bearer realm="/api"`), when it declares any.', schema: { type: 'string' } } },
    content: json(ref('Error')),
  },
  403: { description: 'Forbidden (a permission grant is missing, a recent password confirmation is required, or a rescueFrom handler refused).', content: json(ref('Error')) },
  404: { description: 'No such record (or it is outside the policy scope).', content: json(ref('Error')) },
  413: { description: 'The body is larger than the mount\'s bodyLimit.', content: json(ref('Error')) },
  415: { description: 'The body is not application/json.', content: json(ref('Error')) },
  422: { description: 'The record is invalid (`errors` by field), or the CSRF token of a session request is invalid (`error`).', content: json({ anyOf: [ref('ValidationError'), ref('Error')] }) },
  503: { description: 'The database cannot answer now; retry later.', headers: RETRY_AFTER, content: json(ref('Error')) },
};


/** The `:id` path parameter, typed as the resource's key (an integer, a bigint as digits, a uuid, a text). */
function idParameter(resource: CompiledResource): OpenApiObject {
  const { key } = resource;
  if (key.type === 'integer') return { name: 'id', in: 'path', required: true, description: 'The record id.', schema: { type: 'integer', minimum: 1 }, example: 1 };
  const { example, ...schema } = key.schema as { example?: unknown };
  return { name: 'id', in: 'path', required: true, description: `The record's ${key.column} (${key.type}).`, schema, ...(example === undefined ? {} : { example }) };
}

/** A query parameter as the OpenAPI document gives it (the list modifiers declare it: `querying/list-query.ts`). */
function queryParameter({ name, description, style, explode, schema }: QueryParameter): OpenApiObject {
  return { name, in: 'query', required: false, ...(description === undefined ? {} : { description }), ...(style === undefined ? {} : { style }), ...(explode === undefined ? {} : { explode }), schema };
}

/** The success answer of a route: from the fields, unless the controller overrides what is serialized (then any JSON object). */
function success(route: RouteEntry, resource: CompiledResource, context: OperationContext): [number, OpenApiObject] {
  if (route.action === 'upload') return [201, { description: 'Received: the upload id to name in a write (and, for a direct upload, where to PUT the bytes).', content: json(UPLOAD_ANSWER) }];
  if (route.action === 'batch') return [200, { description: 'Every operation applied (or, with `"atomic": false`, each one on its own: `summary.failed` counts the refused ones).', content: json(batchAnswerSchema(resource, requiresIfMatch(route, context))) }];
  if (route.action === 'related') {
    const target = context.panel.resource(resource.fieldsByName.get(route.association!)!.target!);
    return [200, { description: `The ${route.association} of the record, a page at a time.`, headers: TOTAL_COUNT, content: json({ type: 'object', properties: { records: { type: 'array', maxItems: context.panel.config.maxPerPage, items: ref(schemaNames.related(target)) }, pagination: { oneOf: [ref('Pagination'), ref('CursorPagination')] } }, required: ['records', 'pagination'], additionalProperties: false }) }];
  }
  const status = route.action === 'create' ? 201 : 200;
  const derived = responseSchemas(resource, route.action, route.controller)[status] !== undefined;
  const body: Record<string, JsonSchema> = {
    index: { type: 'object', properties: { records: { type: 'array', maxItems: context.panel.config.maxPerPage, items: ref(schemaNames.record(resource, 'index')) }, pagination: { oneOf: [ref('Pagination'), ref('CursorPagination')] } }, required: ['records', 'pagination'], additionalProperties: false },
    show: { type: 'object', properties: { record: ref(schemaNames.record(resource, 'show')) }, required: ['record'], additionalProperties: false },
    destroy: ref('DestroyResult'),
  };
  const schema = derived ? (body[route.action] ?? body.show!) : { type: 'object', description: `${route.controller.name} overrides what this action answers.` };
  return [status, { description: route.action === 'create' ? 'Created.' : 'OK.', ...(route.action === 'index' ? { headers: TOTAL_COUNT } : {}), content: json(schema) }];
}

function operationId(route: RouteEntry, resource: CompiledResource): string {
  const one = resource.name;
  const many = camelize(resource.naming.routeKey);
  switch (route.action) {
    case 'index': return `list${many}`;
    case 'show': return `show${one}`;
    case 'create': return `create${one}`;
    case 'update': return route.method === 'PUT' ? `replace${one}` : `update${one}`;
    case 'destroy': return `delete${one}`;
    case 'related': return `list${one}${camelize(route.association!)}`;
    case 'batch': return `batch${many}`;
    case 'upload': return 'createUpload';
  }
}

/** What PATCH and PUT say: both change only the fields sent (the server's behaviour, as Rails' and Avo's). */
const UPDATE_DESCRIPTION = 'Changes the fields the body carries; a field left out keeps its value. PATCH and PUT behave the same: PUT is not a full replacement, and nothing is required.';

/** The body of a create or update: the attributes under the resource's singular key, with an example made from the fields. */
function requestBody(resource: CompiledResource, view: 'new' | 'edit', actor: DocumentActor | undefined): OpenApiObject {
  const key = resource.naming.singularKey;
  const example = exampleOf(actorWriteSchema(resource, view, actor), key);
  return {
    required: true,
    content: { [JSON_TYPE]: { schema: { type: 'object', properties: { [key]: ref(schemaNames.write(resource, view)) }, required: [key] }, ...(example === undefined ? {} : { example: { [key]: example } }) } },
  };
}

const REF = { type: 'string', minLength: 1, maxLength: 64, description: 'Echoed back with the operation\'s result; unique in the batch.' };
const IF_MATCH = { type: 'string', description: "The record's ETag (as `If-Match`): a record changed since answers 412." };

/** A batch's body, typed per operation: a create takes the new view's attributes, an update the edit view's, a delete none. */
/** The most operations any batch holds (`maxBatchOperations` is at most this); a batch answers one result per operation. */
const MAX_BATCH_OPERATIONS = 1000;

function batchRequestBody(resource: CompiledResource): OpenApiObject {
  const id = { ...(resource.key.type === 'integer' ? { type: 'integer', minimum: 1 } : resource.key.schema), description: 'The record id.' };
  const operation = {
    oneOf: [
      { type: 'object', properties: { op: { const: 'create' }, ref: REF, data: ref(schemaNames.write(resource, 'new')) }, required: ['op', 'data'], additionalProperties: false },
      { type: 'object', properties: { op: { const: 'update' }, ref: REF, id, if_match: IF_MATCH, data: ref(schemaNames.write(resource, 'edit')) }, required: ['op', 'id', 'data'], additionalProperties: false },
      { type: 'object', properties: { op: { const: 'delete' }, ref: REF, id, if_match: IF_MATCH }, required: ['op', 'id'], additionalProperties: false },
    ],
  };
  const schema = { type: 'object', properties: { atomic: { type: 'boolean', default: true }, operations: { type: 'array', minItems: 1, maxItems: MAX_BATCH_OPERATIONS, items: operation } }, required: ['operations'] };
  return { required: true, content: { [JSON_TYPE]: { schema, example: { operations: [{ op: 'delete', ref: 'first', id: 1 }] } } } };
}

/** Whether the route's updates and deletes need `If-Match` (the mount's `requireIfMatch` or the controller's). */
const requiresIfMatch = (route: RouteEntry, context: OperationContext): boolean => context.requireIfMatch === true || route.controller.requireIfMatch;

/** A batch's answer: each operation's result (its single endpoint's status and body, 428 under `requireIfMatch`), and the counts. */
function batchAnswerSchema(resource: CompiledResource, requireIfMatch: boolean): JsonSchema {
  const result = {
    type: 'object',
    properties: {
      index: { type: 'integer', minimum: 0 },
      ref: { type: 'string' },
      status: { type: 'integer', enum: requireIfMatch ? [200, 201, 403, 404, 412, 422, 424, 428] : [200, 201, 403, 404, 412, 422, 424] },
      record: ref(schemaNames.record(resource, 'show')),
      message: { type: 'string' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      error: { type: 'string' },
    },
    required: ['index', 'status'],
  };
  const count = { type: 'integer', minimum: 0 };
  return { type: 'object', properties: { results: { type: 'array', maxItems: MAX_BATCH_OPERATIONS, items: result }, summary: { type: 'object', properties: { succeeded: count, failed: count, not_applied: count }, required: ['succeeded', 'failed', 'not_applied'] } }, required: ['results', 'summary'] };
}

/** The OpenAPI operation of one generated (or Edition B) route: parameters, body, every answer it can give, security. */
export function resourceOperation(route: RouteEntry, context: OperationContext): OpenApiObject {
  const resource = context.panel.resource(route.resourceName);
  // A traversal answers with the parent's rules and then the target's (its controller's before-actions for index).
  const target = route.action === 'related' ? route.targetController : undefined;
  const before = [...beforeActionsFor(route.controller, route.action), ...(target ? beforeActionsFor(target, 'index') : [])];
  const authenticated = before.includes('setupAuthentication');
  const member = route.path.endsWith('/:id') || route.action === 'related';
  const writes = route.action === 'create' || route.action === 'update' || route.action === 'batch' || route.action === 'upload';
  const statuses = new Set<number>([400, 503]);
  if (authenticated) statuses.add(401);
  // A batch answers a policy's refusal in the operation's result (403), never with the single endpoint's 302.
  if (!(route.controller.prototype instanceof PublicResourcesController) && route.action !== 'batch') statuses.add(302);
  // A write to a `confirm: true` field on the panel-session path may need a recent password confirmation.
  const confirms = writes && resource.fields.some((field) => field.definition.options.confirm === true);
  if ((context.gated && authenticated) || declaresRescues(route.controller) || (target && declaresRescues(target)) || before.includes('requireRecentConfirmation') || confirms) statuses.add(403);
  if (member) statuses.add(404);
  if (writes) for (const status of [413, 415]) statuses.add(status);
  if (writes || route.action === 'destroy') statuses.add(422);
  const [status, answer] = success(route, resource, context);
  const responses: Record<string, OpenApiObject> = { [status]: answer };
  for (const code of [...statuses].sort()) responses[code] = ANSWERS[code]!;
  if (route.action === 'upload') delete responses[422];
  if (route.action === 'upload') responses[403] = ANSWERS[403]!;
  if (route.action === 'batch') responses[422] = { description: 'An atomic batch failed: nothing was written; each operation answers its outcome (the valid ones 424).', content: json(batchAnswerSchema(resource, requiresIfMatch(route, context))) };
  const listed = route.action === 'related' ? context.panel.resource(resource.fieldsByName.get(route.association!)!.target!) : resource;
  const parameters = [
    ...(member ? [idParameter(resource)] : []),
    // The view's fields as declared (the document's sort_by enum, without an actor), or as one actor reads them.
    ...actionParameters(route.action, listed, { config: context.panel.config, defaults: context.defaults, viewFields: (view) => (context.actor ? context.actor.access(listed).readable(view) : listed.fieldsOn(view)), access: context.actor?.access(listed), accessOf: context.actor ? (target) => context.actor!.accessThrough(listed, target) : undefined, guarded: context.guarded, modifiers: routeModifiers(route, context.listModifiers), resolve: context.resolve }).map(queryParameter),
  ];
  responses[status] = withQueryHeaders(answer, parameters);
  const writeView = route.action === 'create' ? 'new' : 'edit';
  return {
    operationId: operationId(route, resource),
    summary: summary(route, resource),
    tags: [route.action === 'upload' ? 'Uploads' : resource.name],
    description: description(route, resource, context),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.action === 'upload' ? { requestBody: UPLOAD_BODY } : route.action === 'batch' ? { requestBody: batchRequestBody(resource) } : writes ? { requestBody: requestBody(resource, writeView, context.actor) } : {}),
    responses,
    security: authenticated ? context.security : [],
  };
}

function description(route: RouteEntry, resource: CompiledResource, context: OperationContext): string {
  switch (route.action) {
    case 'index': return `A page of the records the caller may read. Without \`sort_by\`, records are ordered by ${defaultOrder(resource)}.`;
    case 'show': return 'The record on its show view. A record that does not exist, or that the policy scope hides from the caller, is a 404 alike.';
    case 'create': return 'Creates a record from the writable fields of the new view the body carries (other keys are ignored) and answers it on its show view.';
    case 'update': return UPDATE_DESCRIPTION;
    case 'destroy': return 'Deletes the record.';
    case 'related': return `The records the association holds that the caller may read, a page at a time. Without \`sort_by\`, they are ordered by ${defaultOrder(context.panel.resource(resource.fieldsByName.get(route.association!)!.target!))}.`;
    case 'upload': return 'Receives a file before the write that attaches it: `multipart/form-data` with a part named `file` (streamed; its type judged from its bytes), or JSON `{ filename, content_type, byte_size, checksum }` for a direct upload to an S3-compatible store (a presigned PUT). Answers an upload id: bound to the credential, single-use, expiring. A write names it under a file field (`"cover": "<id>"`). Needs a credential that may write a file field; spends one unit of the rate limit per MiB.';
    case 'batch': return 'Creates, updates and deletes records in one request, each operation decided as its single endpoint decides it. Atomic by default: on failure nothing is written (422) and every operation answers its true outcome, the valid ones 424. With `"atomic": false` each operation applies fully or not at all (200). Spends one unit of the rate limit per operation.';
  }
}

function summary(route: RouteEntry, resource: CompiledResource): string {
  const human = resource.naming.humanName.toLowerCase();
  switch (route.action) {
    case 'index': return `List ${human} records`;
    case 'show': return `Show a ${human}`;
    case 'create': return `Create a ${human}`;
    case 'update': return route.method === 'PUT' ? `Update a ${human} (PUT, as PATCH)` : `Update a ${human}`;
    case 'destroy': return `Delete a ${human}`;
    case 'related': return `List the ${route.association} of a ${human}`;
    case 'batch': return `Create, update and delete ${human} records in one request`;
    case 'upload': return 'Upload a file';
  }
}
