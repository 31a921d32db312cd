// The one controller class: every step of a request an app may override, each a short method that delegates to its stage or helper module (why the file is near the size limit).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder, Transaction } from 'kysely';
import { DEFAULT_MAX_BATCH_OPERATIONS, type CompiledField, type CompiledResource, type RecordId, type ErrorMessages, type FieldAccess, type OperationInput, type Panel, type PolicyAction, type ReadableRecords, type RecordRow, type ScopeFunction, type SessionData, type View } from '@panel/core';
import { batchAction, createAction, destroyAction, updateAction } from '../actions/write-actions.js';
import { receivedUpload } from './upload-answer.js';
import { uploadBytesMeter } from '../pipeline/stages/rate-limit-stage.js';
import { indexAction, listRequestOf, relatedPage, showAction } from '../actions/read-actions.js';
import { AuthenticationError, ConfirmationRequiredError } from '../errors/api-errors.js';
import { refusedWriteReply } from '../errors/error-reply.js';
import { entityTag } from '../http-semantics/entity-tag.js';
import { checkIfMatchFor } from '../http-semantics/if-match.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { runPipeline } from '../pipeline/run-pipeline.js';
import { traversalTarget } from '../pipeline/traversal.js';
import { queryableFields, type QueryableFields } from '../querying/queryable-fields.js';
import { fieldJson, type FieldValue } from '../serialization/field-value.js';
import { serializeRecordFor } from '../serialization/record-serializer.js';
import { declareBeforeAction, type ActionName } from './callback-chain.js';
import { ControllerDeclarations } from './controller-declarations.js';
import type { ControllerHooks, ListRequest, Rendered } from './controller-hooks.js';
import { authorizeWith, fieldAccessFor, onPanelSessionPath, operationInputOf, policyClientOf, policyScopeOf, readableRecordsOf, recordFieldsFor, recordIdOf } from './record-access.js';
import type { RequestActor, RequestCredential } from './request-gate.js';

export { PER_PAGE_COOKIE, TOTAL_COUNT_HEADER } from '../actions/read-actions.js';
export type { Rendered } from './controller-hooks.js';
/** What the runtime gives a controller for one request (see `RequestContext`). */
export type ControllerContext = RequestContext;

/**
 * The runtime controller every generated controller inherits (through the generated
 * `BaseResourcesController`). One instance serves one request, whose context
 * (`this.context`: request, reply, actor, transaction, field access, list query) its route's
 * stages read and decide on (`RouteRuntime.stages`: the before-actions with authentication and
 * the gate's permission, the current user, the rate limit, a write's preconditions, the
 * action, render). Every step is a method here an app may override, calling `super` and
 * adjusting, or replacing it; each default delegates to its stage or helper module.
 */
export class ResourcesController extends ControllerDeclarations {
  /** What a write does with a key no field has or the actor may not write (`ignore` or `reject`); undefined takes the mount's. */
  static unpermittedAttributes: 'ignore' | 'reject' | undefined = undefined;

  /** The most operations a batch of this controller's resource holds (`POST …/batch`): default 100, at most 1000. */
  static maxBatchOperations: number = DEFAULT_MAX_BATCH_OPERATIONS;

  static {
    this.beforeAction('verifyAuthenticityToken');
    // The authentication step: an extension's gate runs around it (see `RequestGate`).
    declareBeforeAction(this, 'setupAuthentication', {}, true);
  }

  /** This request's context, which every stage reads and decides on. */
  readonly context: RequestContext;

  constructor(context: RequestContext) {
    super();
    this.context = context;
    // The stages call the overridable methods, protected ones included, through the controller's hooks.
    context.controller = this as unknown as ControllerHooks;
  }

  get request(): FastifyRequest { return this.context.request; }
  get reply(): FastifyReply { return this.context.reply; }
  get panel(): Panel { return this.context.panel; }
  get resource(): CompiledResource { return this.context.resource; }
  get actionName(): ActionName { return this.context.action; }
  /** Path parameters (`id`). */
  get params(): Record<string, string> { return this.context.params; }
  /** Query string parameters, over the mount's `defaults`. */
  get query(): Record<string, unknown> { return this.context.query; }
  /** The panel session (`{}` without one, when it expired or was revoked, or for the CSRF null session). */
  get session(): SessionData { return this.context.session.data; }
  /** The credential an extension's gate verified (Edition B's Bearer token), which a `currentUser()` may look at; undefined otherwise. */
  get apiToken(): RequestCredential | undefined { return this.context.credential; }
  /** Who this request acts as (see `RequestActor`). */
  protected get actor(): RequestActor { return this.context.actor; }
  /** While a write under `If-Match` or `Idempotency-Key` runs: its transaction, which the action's operations use. */
  get transaction(): Transaction<any> | undefined { return this.context.transaction; }
  /** What the action rendered, sent once it returns: an override can call `super` and adjust it. */
  get rendered(): Rendered | undefined { return this.context.rendered; }
  set rendered(rendered: Rendered | undefined) { this.context.rendered = rendered; }

  /** Runs the request through its route's stages and sends what was rendered (204 when nothing was). */
  process(): Promise<FastifyReply> { return runPipeline(this.context); }

  /** Renders `body` as JSON with `status` (sent once the action returns). */
  render(status: number, body: unknown): Rendered {
    this.context.rendered = { status, body };
    return this.context.rendered;
  }

  /** Authenticates the request; throw `AuthenticationError` for 401. The default rejects every request: the API is closed until the app opens it. */
  async setupAuthentication(): Promise<void> { throw new AuthenticationError(); }
  /** The default `currentUserMethod`: the user `Current.user` is set to after authentication. */
  async currentUser(): Promise<unknown> { return null; }

  /** The before-action that applies the class's CSRF strategy (see `setupCsrfProtection`). */
  verifyAuthenticityToken(): void { this.context.session.verifyAuthenticity(this.constructor, this.request); }

  /**
   * A before-action for sensitive actions (sudo mode): `ConfirmationRequiredError` (403 with the
   * confirm page's path) unless the panel session's user typed their password within
   * `session.confirmWindow` seconds.
   *
   * @example
   * static { this.beforeAction('requireRecentConfirmation', { only: ['create'] }); }
   */
  requireRecentConfirmation(): void {
    if (!this.context.session.isRecentlyConfirmed(this.panel)) throw new ConfirmationRequiredError();
  }

  /** Whether the request is on the panel-session path (no credential, a session naming a user): field confirmation applies there. */
  protected onPanelSessionPath(): boolean { return onPanelSessionPath(this.context); }

  /** The authorization client whose policies govern this request's actor: the panel's, unless the actor's grants are authoritative. */
  protected policyClient(): Panel['authorization'] { return policyClientOf(this.context); }
  /** The policy scope applied to every records query of this request; none when authorization is not in force. */
  protected policyScope(): ScopeFunction | undefined { return policyScopeOf(this.context, this.policyClient()); }
  /** Asks the policy whether the current user may run `action`; throws `NotAuthorizedError` when not. */
  protected authorize(action: PolicyAction, record: unknown = null): Promise<void> { return authorizeWith(this.context, this.policyClient(), action, record); }
  /** The records of other resources this request's actor may read (ids a write names, association values). */
  protected readableRecords(): ReadableRecords | undefined { return readableRecordsOf(this.context, this.policyClient()); }
  /** Which fields this request's actor reads and writes on `resource` (default this controller's), once per request. */
  protected fieldAccess(resource: CompiledResource = this.resource): FieldAccess { return fieldAccessFor(this.context, resource); }
  /** The fields a record of this request may carry on a view: those the actor reads, narrowed by `fields=`. */
  protected recordFields(resource: CompiledResource, view: View): readonly CompiledField[] { return recordFieldsFor(this.context, resource, view); }
  /** Whether a field's key is left out of this actor's records (Edition B: an association without a read grant on its target). */
  protected hidesAssociation(field: CompiledField): boolean { return this.actor.omits(field); }
  /** What this request's operations take: the panel, resource, current user, and this controller's checks. */
  protected operationInput(): OperationInput { return operationInputOf(this.context); }
  /** A write sets a `confirm: true` field: on the panel-session path it needs a recent password confirmation. */
  protected requireFieldConfirmation(): void { if (this.onPanelSessionPath()) this.requireRecentConfirmation(); }
  /** The `:id` of the request; an id that cannot name a record is a 404. */
  protected recordId(): RecordId { return recordIdOf(this.context); }
  /** The fields this request may filter, select and search on a view of a resource (`queryableFields`, with this actor). */
  protected queryableFields(resource: CompiledResource, view: View): QueryableFields { return queryableFields({ resource, view, access: this.fieldAccess(resource) }); }
  /** A list's query parameters, read by the route's list modifiers against what this request may read (one 400 for every problem). */
  protected listRequest(resource: CompiledResource): ListRequest { return listRequestOf(this.context, resource); }
  /** For `related`: the target resource's controller once its stages up to the current user ran; undefined when one rendered. */
  protected traversalTarget(): Promise<ControllerHooks | undefined> { return traversalTarget(this.context); }

  /** GET /<route_key>: a page of records on the index view with the pagination envelope. */
  index(): Promise<unknown> { return indexAction(this.context); }
  /** GET /<route_key>/:id: one record on the show view. */
  show(): Promise<unknown> { return showAction(this.context); }
  /** POST /<route_key>: creates a record; answers it on the show view. */
  create(): Promise<unknown> { return createAction(this.context); }
  /** PATCH or PUT /<route_key>/:id: updates the edit view's fields sent; answers the record on the show view. */
  update(): Promise<unknown> { return updateAction(this.context); }
  /** DELETE /<route_key>/:id. */
  destroy(): Promise<unknown> { return destroyAction(this.context); }
  /** POST /<route_key>/batch: creates, updates and deletes of this resource in one request (atomic unless `"atomic": false`); 200 with each result, or 422. */
  batch(): Promise<unknown> { return batchAction(this.context, (this.constructor as typeof ResourcesController).maxBatchOperations); }
  /** POST <mount>/uploads: a file received before the write that attaches it; 201 `{ upload }`, 403 for an actor who may write no file field. */
  async upload(): Promise<unknown> { return this.render(201, await receivedUpload(this.context, (resource) => this.fieldAccess(resource), uploadBytesMeter(this.context))); }
  /** Edition B, GET /<route_key>/:id/<association>: the associated records, with the target's rules, a page at a time. */
  async related(): Promise<unknown> {
    const target = await this.traversalTarget();
    if (!target) return this.rendered;
    const { rows, pagination, embed } = await relatedPage(this.context, target);
    const records = target.serializeRecords(rows, 'index');
    await embed(records);
    return this.render(200, { records, pagination });
  }

  /** 201 `{ record }` on the show view. */
  createSuccessAction(row: RecordRow): unknown { return this.render(201, { record: this.serializeRecord(row, 'show') }); }
  /** 422 `{ errors, message: "Failed to create <ResourceName>" }`. */
  createFailAction(errors: ErrorMessages): unknown { return this.#refused('create', errors); }
  /** 200 `{ record }` on the show view. */
  updateSuccessAction(row: RecordRow): unknown { return this.render(200, { record: this.serializeRecord(row, 'show') }); }
  /** 422 `{ errors, message: "Failed to update <ResourceName>" }`. */
  updateFailAction(errors: ErrorMessages): unknown { return this.#refused('update', errors); }
  /** 200 `{ message: "<ResourceName> successfully deleted" }`. */
  destroySuccessAction(): unknown { return this.render(200, { message: `${this.resource.naming.humanName} successfully deleted` }); }
  /** 422 `{ errors: { base: [...] }, message: "Failed to delete <ResourceName>" }`. */
  destroyFailAction(errors: ErrorMessages): unknown { return this.#refused('destroy', errors); }

  #refused(action: 'create' | 'update' | 'destroy', errors: ErrorMessages): Rendered {
    const { status, body } = refusedWriteReply(action, this.resource.naming.humanName, errors);
    return this.render(status, body);
  }

  /** The records of a page, each on `view`. */
  serializeRecords(rows: readonly RecordRow[], view: View): Record<string, unknown>[] { return rows.map((row) => this.serializeRecord(row, view)); }
  /** One record: a key per field this actor reads on `view` (and on this record). */
  serializeRecord(row: RecordRow, view: View): Record<string, unknown> {
    const access = this.fieldAccess();
    return serializeRecordFor(this.context, access, row, view);
  }
  /** The JSON value of one field of one record, as this request's actor receives it (Edition B: signed file URLs for a token). */
  serializeFieldValue(value: FieldValue): unknown { return this.actor.presents(value.field, fieldJson(value)); }

  /** The ETag of a record's show answer, as GET show sends it: a controller that changes the show body overrides this to match. */
  recordEntityTag(row: RecordRow): string { return entityTag({ record: this.serializeRecord(row, 'show') }); }
  /** The select that locks the record's row until the write's transaction `trx` commits, for `If-Match` on update and delete. */
  ifMatchRowLock(trx: Transaction<any>): SelectQueryBuilder<any, any, any> { return this.panel.records.rowLock({ resource: this.resource, id: this.recordId() }, trx); }
  /** `If-Match` on update and delete, once the row is locked: 412 unless it is `*` or lists the record's ETag now. */
  checkIfMatch(header: string, trx: Transaction<any>): Promise<void> { return checkIfMatchFor(this.context, header, trx); }
}

/** Whether a value is a controller class the runtime can route to (checked by shape). */
export function isControllerClass(value: unknown): value is typeof ResourcesController {
  return typeof value === 'function' && typeof (value as { prototype?: { process?: unknown } }).prototype?.process === 'function' && typeof (value as { skipBeforeAction?: unknown }).skipBeforeAction === 'function';
}
