import { Current, isPanelError, operations, type CompiledField, type CompiledResource, type ErrorMessages, type OperationInput, type RecordRow, type ScopeFunction, type View } from '@panel/core';
import { RecordNotFoundError } from '@panel/core';
import { pageRequest, pagination } from '../params/pagination-params.js';
import { sortRequest } from '../params/sort-params.js';
import { recordId, recordParams } from '../params/record-params.js';
import { fieldJson, type FieldValue } from '../serialization/field-value.js';
import { ControllerBase } from './controller-base.js';
import { associationFilter } from '../edition-b/association-filter.js';
import { signFileUrls } from '../edition-b/signed-file-urls.js';
import type { Transaction } from 'kysely';
import { PreconditionFailedError } from '../errors/api-errors.js';
import { entityTag, ifMatchHolds } from '../http-semantics/entity-tag.js';

/** The association field types whose key Edition B omits without a read grant on the target. */
const ASSOCIATION_TYPES: ReadonlySet<string> = new Set(['belongs_to', 'has_many', 'has_one', 'has_and_belongs_to_many']);
/** The field types whose URLs are signed for token actors. */
const FILE_TYPES: ReadonlySet<string> = new Set(['file', 'files']);

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
 * and adjusting, or replacing it.
 */
export class ResourcesController extends ControllerBase {
  /** GET /<route_key>: a page of records on the index view with the pagination envelope. */
  async index(): Promise<unknown> {
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, this.request.cookies?.[PER_PAGE_COOKIE], this.panel.config, this.defaults);
    const sort = sortRequest(this.resource, this.query);
    const { rows, totalCount, totalCountSource } = await operations.list({ ...this.operationInput(), page: request.page, perPage: request.perPage, sort });
    if (totalCountSource) this.reply.header(TOTAL_COUNT_HEADER, totalCountSource);
    if (request.perPageFromQuery) {
      this.reply.setCookie(PER_PAGE_COOKIE, String(request.perPage), { path: this.mountPath, httpOnly: true, sameSite: 'lax' });
    }
    return this.render(200, { records: this.serializeRecords(rows, 'index'), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /** GET /<route_key>/:id: one record on the show view. */
  async show(): Promise<unknown> {
    const row = await operations.show({ ...this.operationInput(), id: this.recordId() });
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
   * Edition B, GET /<route_key>/:id/<association>: the records of a `has_many`, `has_one` or
   * `has_and_belongs_to_many` association on the target resource's index view, a page at a time
   * (`page`, `per_page`, `sort_by`, `sort_direction` as on index, with the pagination envelope).
   * The parent is looked up as show looks it up; the target's records go through the target's
   * policy scope on the code-hook path. Read-only.
   */
  async related(): Promise<unknown> {
    const field = this.resource.fieldsByName.get(this.association!)!;
    const parent = await operations.show({ ...this.operationInput(), id: this.recordId() });
    const target = this.panel.resource(field.target!);
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, undefined, this.panel.config, this.defaults);
    const sort = sortRequest(target, this.query);
    const targetScope = this.apiToken || !this.panel.authorization ? undefined : this.targetPolicyScope(target);
    const narrow = associationFilter(field, Number(parent.id));
    const { rows, totalCount, totalCountSource } = await operations.list({
      ...this.operationInput(),
      resource: target,
      authorize: this.apiToken ? async () => {} : undefined,
      scope: (query) => narrow(targetScope ? targetScope(query) : query),
      page: request.page,
      perPage: request.perPage,
      sort,
    });
    if (totalCountSource) this.reply.header(TOTAL_COUNT_HEADER, totalCountSource);
    return this.render(200, { records: rows.map((row) => this.serializeRelatedRecord(target, row)), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /** The policy scope of another resource (a traversal's target), with `Current.user`. */
  protected targetPolicyScope(target: CompiledResource): ScopeFunction | undefined {
    const client = this.panel.authorization;
    if (!client) return undefined;
    const user = Current.user;
    return (query) => client.scope({ user, resource: target, query });
  }

  /** A traversal's record, on the target resource's index view. */
  protected serializeRelatedRecord(target: CompiledResource, row: RecordRow): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const field of target.fieldsOn('index')) {
      if (this.hidesAssociation(field)) continue;
      record[field.name] = this.serializeFieldValue({ field, row, view: 'index' });
    }
    return record;
  }

  /**
   * Edition B: whether an association key is left out ("omitted entirely when the actor has no
   * read grant on the target resource"). Never in Edition A, nor for a controller that skipped
   * the permission gate.
   */
  protected hidesAssociation(field: CompiledField): boolean {
    if (!this.grants || field.target === undefined || !ASSOCIATION_TYPES.has(field.type)) return false;
    const target = this.panel.resource(field.target).naming.routeKey;
    return !this.grants.allows(target, 'index') && !this.grants.allows(target, 'show');
  }

  /**
   * What this request's operations take: the panel, the resource, `Current.user` as the actor,
   * and this controller's `authorize` and `policyScope`, so that overriding them still applies.
   */
  protected operationInput(): OperationInput {
    return { panel: this.panel, resource: this.resource, actor: Current.user, authorize: (action, record) => this.authorize(action, record), scope: this.policyScope(), transaction: this.transaction };
  }

  /**
   * `If-Match` on update and delete, in the write's transaction `trx`: locks the record's row
   * (`select … for update`, held until the write commits), reads it through the policy scope
   * (outside it: 404, as without the header), and throws 412 `{ "error": "Precondition Failed" }`
   * unless the header is `*` or lists the ETag of the record's show answer now (`recordEntityTag`).
   */
  async checkIfMatch(header: string, trx: Transaction<any>): Promise<void> {
    const id = this.recordId();
    const records = this.panel.records.within(trx);
    await records.lockRow({ resource: this.resource, id }, trx);
    const row = await records.find({ resource: this.resource, view: 'show', id, scope: this.policyScope() });
    if (!ifMatchHolds(header, this.recordEntityTag(row))) throw new PreconditionFailedError();
  }

  /**
   * The ETag of a record's show answer, as GET show sends it: a controller that changes the
   * show body (not only its fields' values) overrides this to match.
   */
  recordEntityTag(row: RecordRow): string {
    return entityTag({ record: this.serializeRecord(row, 'show') });
  }

  /** The `:id` of the request; an id that cannot name a record is a 404. */
  protected recordId(): number {
    const id = recordId(this.params.id);
    if (id === undefined) throw new RecordNotFoundError(this.resource.name, this.params.id);
    return id;
  }

  /** 201 `{ record }` on the show view. */
  createSuccessAction(row: RecordRow): unknown {
    return this.render(201, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to create <ResourceName>" }`. */
  createFailAction(errors: ErrorMessages): unknown {
    return this.render(422, { errors, message: `Failed to create ${this.resource.naming.humanName}` });
  }

  /** 200 `{ record }` on the show view. */
  updateSuccessAction(row: RecordRow): unknown {
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to update <ResourceName>" }`. */
  updateFailAction(errors: ErrorMessages): unknown {
    return this.render(422, { errors, message: `Failed to update ${this.resource.naming.humanName}` });
  }

  /** 200 `{ message: "<ResourceName> successfully deleted" }`. */
  destroySuccessAction(): unknown {
    return this.render(200, { message: `${this.resource.naming.humanName} successfully deleted` });
  }

  /** 422 `{ errors: { base: [...] }, message: "Failed to delete <ResourceName>" }`. */
  destroyFailAction(errors: ErrorMessages): unknown {
    const { base = [], ...others } = errors;
    return this.render(422, { errors: { base: [...base, ...Object.values(others).flat()] }, message: `Failed to delete ${this.resource.naming.humanName}` });
  }

  /** The records of a page, each on `view`. */
  serializeRecords(rows: readonly RecordRow[], view: View): Record<string, unknown>[] {
    return rows.map((row) => this.serializeRecord(row, view));
  }

  /** One record: a key per field visible on `view`. */
  serializeRecord(row: RecordRow, view: View): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const field of this.resource.fieldsOn(view)) {
      if (this.hidesAssociation(field)) continue;
      record[field.name] = this.serializeFieldValue({ field, row, view });
    }
    return record;
  }

  /** The JSON value of one field of one record. */
  serializeFieldValue(value: FieldValue): unknown {
    const json = fieldJson(value);
    // Edition B: a token actor gets signed, expiring file URLs; everyone else the standard one.
    return this.apiToken && this.edition && FILE_TYPES.has(value.field.type) ? signFileUrls(json, this.edition) : json;
  }
}

/** Whether a value is a controller class the runtime can route to (checked by shape). */
export function isControllerClass(value: unknown): value is typeof ResourcesController {
  return typeof value === 'function' && typeof (value as { prototype?: { process?: unknown } }).prototype?.process === 'function' && typeof (value as { skipBeforeAction?: unknown }).skipBeforeAction === 'function';
}
