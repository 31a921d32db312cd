import {
  isPanelError,
  parseWriteValues,
  type ErrorMessages,
  type RecordRow,
  type View,
} from '@panel/core';
import { RecordInvalidError, RecordNotFoundError } from '@panel/core';
import { pageRequest, pagination } from '../params/pagination-params.js';
import { sortRequest } from '../params/sort-params.js';
import { recordId, recordParams } from '../params/record-params.js';
import { fieldJson, type FieldValue } from '../serialization/field-value.js';
import { ControllerBase } from './controller-base.js';

export type { ControllerContext, Rendered } from './controller-base.js';

/** The name of the cookie that keeps the last `per_page` a client sent. */
export const PER_PAGE_COOKIE = 'per_page';

/**
 * The runtime controller every generated controller inherits (through the generated
 * `BaseResourcesController`). One instance serves one request: the before-action chain runs
 * (`setupAuthentication` first), then `Current.user` is assigned from the configured
 * `currentUserMethod`, then the action. Every step is a method an app may override, calling
 * `super` and adjusting, or replacing it.
 */
export class ResourcesController extends ControllerBase {
  /** GET /<route_key>: a page of records on the index view with the pagination envelope. */
  async index(): Promise<unknown> {
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, this.request.cookies?.[PER_PAGE_COOKIE], this.panel.config, this.defaults);
    const sort = sortRequest(this.resource, this.query);
    await this.authorize('index');
    if (request.perPageFromQuery) {
      this.reply.setCookie(PER_PAGE_COOKIE, String(request.perPage), { path: this.mountPath, httpOnly: true, sameSite: 'lax' });
    }
    const { rows, totalCount } = await this.panel.records.list({ resource: this.resource, view: 'index', page: request.page, perPage: request.perPage, sort, scope: this.policyScope() });
    return this.render(200, { records: this.serializeRecords(rows, 'index'), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /** GET /<route_key>/:id: one record on the show view. */
  async show(): Promise<unknown> {
    const row = await this.panel.records.find({ resource: this.resource, view: 'show', id: this.recordId(), scope: this.policyScope() });
    await this.authorize('show', row);
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** POST /<route_key>: creates a record from the new view's fields; answers it on the show view. */
  async create(): Promise<unknown> {
    const { values, errors } = parseWriteValues(this.resource, 'new', recordParams(this.resource, this.request.body));
    await this.authorize('create', values);
    if (Object.keys(errors).length > 0) return this.createFailAction(errors);
    try {
      return await this.createSuccessAction(await this.panel.records.create({ resource: this.resource, view: 'show', values }));
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.createFailAction((error as unknown as { errors: ErrorMessages }).errors);
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
    const { values, errors } = parseWriteValues(this.resource, 'edit', attributes);
    const beforeWrite = async ({ record }: { record: RecordRow }) => {
      await this.authorize('update', record);
      // The policy answers first: a refused user never learns what is wrong with the values.
      if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
    };
    try {
      return await this.updateSuccessAction(await this.panel.records.update({ resource: this.resource, view: 'show', id, values, scope: this.policyScope(), beforeWrite }));
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.updateFailAction((error as unknown as { errors: ErrorMessages }).errors);
      throw error;
    }
  }

  /** DELETE /<route_key>/:id. */
  async destroy(): Promise<unknown> {
    const id = this.recordId();
    const scope = this.policyScope();
    await this.authorize('destroy', await this.panel.records.find({ resource: this.resource, view: 'show', id, scope }));
    try {
      await this.panel.records.destroy({ resource: this.resource, id, scope });
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.destroyFailAction((error as unknown as { errors: ErrorMessages }).errors);
      throw error;
    }
    return this.destroySuccessAction();
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
    for (const field of this.resource.fieldsOn(view)) record[field.name] = this.serializeFieldValue({ field, row, view });
    return record;
  }

  /** The JSON value of one field of one record. */
  serializeFieldValue(value: FieldValue): unknown {
    return fieldJson(value);
  }
}

/** Whether a value is a controller class the runtime can route to (checked by shape). */
export function isControllerClass(value: unknown): value is typeof ResourcesController {
  return typeof value === 'function' && typeof (value as { prototype?: { process?: unknown } }).prototype?.process === 'function' && typeof (value as { skipBeforeAction?: unknown }).skipBeforeAction === 'function';
}
