import { BaseResourcesController } from './base-resources-controller.js';

/**
 * An Edition B override: it extends the app's BaseResourcesController, so it keeps the Bearer
 * token check, `setupAuthentication` and the permission gate. Drawn before the catch-all.
 */
export class CommentsController extends BaseResourcesController {
  static override resourceName = 'Comment';
}
