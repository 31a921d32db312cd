import type { ErrorMessages, RecordRow, View } from '@panel/core';
import { refusedWriteReply } from '../errors/error-reply.js';
import { RecordAccessController } from './record-access-controller.js';

/**
 * The layer of `ResourcesController` that answers an action's result (Rails' respond_to
 * branches): each write action's success and fail callback, which an app may override to
 * answer its own way (calling `render`), or call `super` and adjust `rendered`.
 */
export abstract class ResultCallbacksController extends RecordAccessController {
  /** One record as JSON on `view`: `ResourcesController`'s serializer, which the success callbacks answer with. */
  abstract serializeRecord(row: RecordRow, view: View): Record<string, unknown>;

  /** 201 `{ record }` on the show view. */
  createSuccessAction(row: RecordRow): unknown {
    return this.render(201, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to create <ResourceName>" }`. */
  createFailAction(errors: ErrorMessages): unknown {
    const { status, body } = refusedWriteReply('create', this.resource.naming.humanName, errors);
    return this.render(status, body);
  }

  /** 200 `{ record }` on the show view. */
  updateSuccessAction(row: RecordRow): unknown {
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to update <ResourceName>" }`. */
  updateFailAction(errors: ErrorMessages): unknown {
    const { status, body } = refusedWriteReply('update', this.resource.naming.humanName, errors);
    return this.render(status, body);
  }

  /** 200 `{ message: "<ResourceName> successfully deleted" }`. */
  destroySuccessAction(): unknown {
    return this.render(200, { message: `${this.resource.naming.humanName} successfully deleted` });
  }

  /** 422 `{ errors: { base: [...] }, message: "Failed to delete <ResourceName>" }`. */
  destroyFailAction(errors: ErrorMessages): unknown {
    const { status, body } = refusedWriteReply('destroy', this.resource.naming.humanName, errors);
    return this.render(status, body);
  }
}
