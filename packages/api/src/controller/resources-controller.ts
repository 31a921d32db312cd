// Over 250 lines: the actions an app overrides as methods of one class (index, show, create, update, destroy, batch, upload, related), with the list parameters and the serializer they share.
import type { SelectQueryBuilder, Transaction } from 'kysely';
import { Current, DEFAULT_MAX_BATCH_OPERATIONS, isPanelError, operations, type CompiledResource, type ErrorMessages, type RecordRow, type RecordsSort, type View } from '@panel/core';
import { pageRequest, pagination } from '../params/pagination-params.js';
import { recordParams } from '../params/record-params.js';
import { sortRequest } from '../params/sort-params.js';
import { associationFilter } from '../edition-b/association-filter.js';
import { BadRequestError, PreconditionFailedError } from '../errors/api-errors.js';
import { receivedUpload } from './upload-answer.js';
import { fieldsetRequest } from '../querying/fieldset-params.js';
import { queryableFields, type QueryableFields } from '../querying/queryable-fields.js';
import { listQuery, type ListQuery } from '../querying/list-query.js';
import { queryValues } from '../querying/query-values.js';
import { fieldJson, type FieldValue } from '../serialization/field-value.js';
import { entityTag, ifMatchHolds, parseEntityTags } from '../http-semantics/entity-tag.js';
import { batchParams } from '../params/batch-params.js';
import { batchAnswer } from './batch-results.js';
import { ResultCallbacksController } from './result-callbacks-controller.js';
import { POLICY_ACTOR } from './request-gate.js';

export type { ControllerContext, Rendered } from './controller-base.js';

/** The name of the cookie that keeps the last `per_page` a client sent. */
export const PER_PAGE_COOKIE = 'per_page';

/**
 * The response header that says where `total_count` came from when it is not an exact count
 * started after the request: `estimate` or `cached` (the opt-in count strategies of the
 * panel's `count` option). Absent for the default exact count.
 */
export const TOTAL_COUNT_HEADER = 'Panel-Total-Count';

const invalidErrors = (error: unknown): ErrorMessages | undefined =>
  isPanelError(error, 'PANEL_ERR_RECORD_INVALID') ? (error as unknown as { errors: ErrorMessages }).errors : undefined;

/**
 * The runtime controller every generated controller inherits (through the generated
 * `BaseResourcesController`). One instance serves one request: the before-action chain runs
 * (`setupAuthentication` first), then `Current.user` is assigned from the configured
 * `currentUserMethod`, then the action. Each action reads the request, runs its operation
 * (`operations` of `@panel/core`: authorization, validation, hooks, transaction) and renders
 * through the result callbacks. Every step is a method an app may override, calling `super`
 * and adjusting, or replacing it. The class is built in layers, a file each: `ControllerBase`
 * (the request lifecycle), `RecordAccessController` (what the request reaches: policies, field
 * access, what its operations take), `ResultCallbacksController` (the success and fail
 * callbacks); this one adds the actions and traversal, the list parameters they read, and the
 * serializer they answer with.
 */
export class ResourcesController extends ResultCallbacksController {
  /** The most operations a batch of this controller's resource holds (`POST …/batch`): default 100, at most 1000. */
  static maxBatchOperations: number = DEFAULT_MAX_BATCH_OPERATIONS;

  /** GET /<route_key>: a page of records on the index view with the pagination envelope. */
  async index(): Promise<unknown> {
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, this.request.cookies?.[PER_PAGE_COOKIE], this.panel.config, this.defaults);
    const { sort, where, fields } = this.listRequest(this.resource);
    const { rows, totalCount, totalCountSource } = await operations.list({ ...this.operationInput(), page: request.page, perPage: request.perPage, sort, where, fields });
    if (totalCountSource) this.reply.header(TOTAL_COUNT_HEADER, totalCountSource);
    if (request.perPageFromQuery) {
      this.reply.setCookie(PER_PAGE_COOKIE, String(request.perPage), { path: this.mountPath, httpOnly: true, sameSite: 'lax' });
    }
    return this.render(200, { records: this.serializeRecords(rows, 'index'), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /** GET /<route_key>/:id: one record on the show view. */
  async show(): Promise<unknown> {
    const id = this.recordId();
    // Without `fields` there is no fieldset to check: the actor's queryable fields are not worked out.
    const { fields, problems } = this.query.fields === undefined ? { fields: undefined, problems: [] } : fieldsetRequest(queryValues(this.query), this.queryableFields(this.resource, 'show'), this.resource);
    if (problems.length > 0) throw new BadRequestError(problems.join('; '));
    this.fieldset = fields;
    const row = await operations.show({ ...this.operationInput(), id, fields });
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** POST /<route_key>: creates a record from the new view's fields; answers it on the show view. */
  async create(): Promise<unknown> {
    const attributes = recordParams(this.resource, this.request.body);
    try {
      return await this.createSuccessAction(await operations.create({ ...this.operationInput(), attributes }));
    } catch (error) {
      const errors = invalidErrors(error);
      if (errors) return this.createFailAction(errors);
      throw error;
    }
  }

  /**
   * PATCH or PUT /<route_key>/:id: updates the edit view's fields sent; answers the record on
   * the show view. The record is found through the scope and authorized inside the update's
   * transaction (then the values are checked), so it is read once.
   */
  async update(): Promise<unknown> {
    const id = this.recordId();
    const attributes = recordParams(this.resource, this.request.body);
    try {
      return await this.updateSuccessAction(await operations.update({ ...this.operationInput(), id, attributes }));
    } catch (error) {
      const errors = invalidErrors(error);
      if (errors) return this.updateFailAction(errors);
      throw error;
    }
  }

  /** DELETE /<route_key>/:id. */
  async destroy(): Promise<unknown> {
    try {
      await operations.destroy({ ...this.operationInput(), id: this.recordId() });
    } catch (error) {
      const errors = invalidErrors(error);
      if (errors) return this.destroyFailAction(errors);
      throw error;
    }
    return this.destroySuccessAction();
  }

  /**
   * POST /<route_key>/batch: creates, updates and deletes of this resource in one request
   * (`operations.batch`: atomic unless `"atomic": false`, each operation decided as its single
   * endpoint decides it, `if_match` against the record's ETag). 200 with each result, or 422
   * when an atomic batch failed and nothing was written.
   */
  async batch(): Promise<unknown> {
    const { operations: list, atomic } = batchParams(this.request.body);
    const result = await operations.batch({ ...this.operationInput(), operations: list, atomic, maxOperations: (this.constructor as typeof ResourcesController).maxBatchOperations, entityTag: (row) => this.recordEntityTag(row), ifMatchHolds });
    const { status, body } = batchAnswer(result, atomic, this);
    return this.render(status, body);
  }

  /**
   * POST <mount>/uploads: a file received before the write that attaches it (`panel.uploads`):
   * `multipart/form-data` with a part named `file`, streamed, at most the largest `maxBytes` of
   * the file fields this actor may write (more: 413); or, with JSON `{ filename, content_type,
   * byte_size, checksum }`, a direct upload to an S3-compatible store. 201 `{ upload }`; 403 for
   * an actor who may write no file field.
   */
  async upload(): Promise<unknown> {
    return this.render(201, await receivedUpload(this, this.fieldAccess.bind(this)));
  }

  /**
   * Edition B, GET /<route_key>/:id/<association>: the records of a `has_many`, `has_one` or
   * `has_and_belongs_to_many` association on the target resource's index view, a page at a time
   * (`page`, `per_page`, `sort_by`, `sort_direction` as on index, with the pagination envelope).
   * The parent is looked up as show looks it up, with this controller's rules; the target's
   * records answer with the target's rules: the controller that serves the target runs its
   * before-actions for `index` (authentication, the permission gate: `index` or `show` on the
   * target), then its policy, scope and serialization apply. Read-only.
   */
  async related(): Promise<unknown> {
    const field = this.resource.fieldsByName.get(this.association!)!;
    const parentUser = Current.user;
    const target = (await this.traversalTarget()) as ResourcesController | undefined;
    if (!target) return this.rendered;
    const targetUser = Current.user;
    Current.user = parentUser;
    const parent = await operations.show({ ...this.operationInput(), id: this.recordId() });
    Current.user = targetUser;
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, undefined, this.panel.config, this.defaults);
    const { sort, where, fields } = target.listRequest(target.resource);
    const input = target.operationInput();
    const narrow = associationFilter(field, Number(parent.id));
    const { rows, totalCount, totalCountSource } = await operations.list({
      ...input,
      scope: (query) => narrow(input.scope ? input.scope(query) : query),
      page: request.page,
      perPage: request.perPage,
      sort,
      where,
      fields,
    });
    if (totalCountSource) this.reply.header(TOTAL_COUNT_HEADER, totalCountSource);
    return this.render(200, { records: target.serializeRecords(rows, 'index'), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /**
   * The fields this request may filter, select, search and receive on a view of a resource:
   * `queryableFields`, the one function that decides, with this request's actor and (Edition
   * B) the association keys it may not see.
   */
  protected queryableFields(resource: CompiledResource, view: View): QueryableFields {
    return queryableFields({ resource, view, access: this.fieldAccess(resource) });
  }

  /**
   * A list's parameters besides the page (index and traversal): `sort_by`/`sort_direction`,
   * `filter[…]`, `q` and `fields`, checked against what this request may read. Every problem
   * of every parameter is answered in one 400.
   */
  protected listRequest(resource: CompiledResource): { sort: RecordsSort | undefined } & Pick<ListQuery, 'where' | 'fields'> {
    const problems: string[] = [];
    let sort: RecordsSort | undefined;
    try {
      sort = sortRequest(resource, this.query, this.fieldAccess(resource).queryable('index'));
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'PANEL_API_ERR_BAD_REQUEST') throw error;
      problems.push((error as Error).message);
    }
    const { where, fields, problems: more } = listQuery({ resource, queryable: this.queryableFields(resource, 'index'), query: this.query, values: queryValues(this.query) });
    problems.push(...more);
    if (problems.length > 0) throw new BadRequestError(problems.join('; '));
    this.fieldset = fields;
    return { sort, where, fields };
  }

  /** The records of a page, each on `view`. */
  serializeRecords(rows: readonly RecordRow[], view: View): Record<string, unknown>[] {
    return rows.map((row) => this.serializeRecord(row, view));
  }

  /** One record: a key per field this actor reads on `view` (and on this record). */
  serializeRecord(row: RecordRow, view: View): Record<string, unknown> {
    const access = this.fieldAccess();
    // The default `serializeFieldValue` for an actor that presents values as they are is the field type's own serializer: called directly.
    const direct = this.serializeFieldValue === ResourcesController.prototype.serializeFieldValue && this.actor.presents === POLICY_ACTOR.presents;
    const record: Record<string, unknown> = {};
    for (const field of this.recordFields(this.resource, view)) {
      if (!access.shows(field, view, row)) continue;
      record[field.name] = direct ? fieldJson({ field, row, view }) : this.serializeFieldValue({ field, row, view });
    }
    return record;
  }

  /** The JSON value of one field of one record. */
  serializeFieldValue(value: FieldValue): unknown {
    // As this request's actor receives it (Edition B: a token gets signed, expiring file URLs).
    return this.actor.presents(value.field, fieldJson(value));
  }

  /**
   * The ETag of a record's show answer, as GET show sends it: a controller that changes the
   * show body (not only its fields' values) overrides this to match.
   */
  recordEntityTag(row: RecordRow): string {
    return entityTag({ record: this.serializeRecord(row, 'show') });
  }

  /**
   * The select that locks the record's row (`select … for update`) until the write's transaction
   * `trx` commits, for `If-Match` on update and delete. It runs before `checkIfMatch`; with an
   * `Idempotency-Key` it runs inside the key's lookup, in one statement.
   */
  ifMatchRowLock(trx: Transaction<any>): SelectQueryBuilder<any, any, any> {
    return this.panel.records.rowLock({ resource: this.resource, id: this.recordId() }, trx);
  }

  /**
   * `If-Match` on update and delete, in the write's transaction `trx`, once the record's row is
   * locked (`ifMatchRowLock`): reads the record through the policy scope (outside it: 404, as
   * without the header), and throws 412 `{ "error": "Precondition Failed" }` unless the header
   * is `*` or lists the ETag of the record's show answer now (`recordEntityTag`). For `*` the
   * show answer is not read: the action's own find through the scope answers 404 for a record
   * that is missing or outside it, as it does without the header.
   */
  async checkIfMatch(header: string, trx: Transaction<any>): Promise<void> {
    if (parseEntityTags(header) === '*') return;
    const row = await this.panel.records.within(trx).find({ resource: this.resource, view: 'show', id: this.recordId(), scope: this.policyScope(), readable: this.readableRecords() });
    if (!ifMatchHolds(header, this.recordEntityTag(row))) throw new PreconditionFailedError();
  }
}

/** Whether a value is a controller class the runtime can route to (checked by shape). */
export function isControllerClass(value: unknown): value is typeof ResourcesController {
  return typeof value === 'function' && typeof (value as { prototype?: { process?: unknown } }).prototype?.process === 'function' && typeof (value as { skipBeforeAction?: unknown }).skipBeforeAction === 'function';
}
