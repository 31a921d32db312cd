import { declareBeforeAction, declareRescue, declareSkipBeforeAction, type CallbackConditions, type ErrorMatcher, type RescueHandler } from './callback-chain.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { ListModifier } from '../querying/list-modifier.js';
import { declareCsrfStrategy, type CsrfStrategy } from './csrf-protection.js';

/**
 * What a controller class declares about itself, Rails' class macros: the resource it serves,
 * its before-actions and `rescueFrom` handlers, its CSRF strategy, whether updates need
 * `If-Match`, and whether the mount's gate guards it. The route's stages are assembled from them at boot.
 */
// biome-ignore lint/complexity/noStaticOnlyClass: its statics are what every controller class inherits and declares in its own static block.
export class ControllerDeclarations {
  /** The resource this controller serves (`BlogPost`); set by each generated controller. */
  static resourceName?: string;

  /**
   * The list modifiers of this controller's lists (index, and a traversal to its resource), as
   * a Django REST Framework view lists its filter backends: each reads its query parameters,
   * declares them (the route's schema, the OpenAPI document) and narrows the list. Undefined
   * takes the mount's `listModifiers`, else `LIST_MODIFIERS`.
   *
   * @example
   * static override listModifiers = [...LIST_MODIFIERS, publishedSinceModifier];
   */
  static listModifiers: readonly ListModifier[] | undefined = undefined;

  /**
   * Whether this controller's update and delete need `If-Match` (a missing one is 428
   * `{ "error": "Precondition Required" }`), whatever the mount's `requireIfMatch` says.
   */
  static requireIfMatch = false;

  /** Runs `method` before the actions (all, or those of `only` / `except`). */
  static beforeAction(method: string, conditions: CallbackConditions = {}): void {
    declareBeforeAction(this, method, conditions);
  }

  /** Stops an inherited before-action from running (all actions, or those of `only` / `except`). */
  static skipBeforeAction(method: string, conditions: CallbackConditions = {}): void {
    declareSkipBeforeAction(this, method, conditions);
  }

  /** Answers errors matching `matcher` (a class or a `code`) with `handler` instead of the default mapping. */
  static rescueFrom<C>(this: abstract new (context: RequestContext) => C, matcher: ErrorMatcher, handler: RescueHandler<C>): void {
    declareRescue(this, matcher, handler as RescueHandler<unknown>);
  }

  /**
   * Sets the class's CSRF strategy; runs once per controller class at boot. The default is the
   * spec's null session. Override it to call `protectFromForgery({ with: 'exception' })`, or
   * with an empty body to turn the check off.
   */
  static setupCsrfProtection(): void {
    this.protectFromForgery({ with: 'nullSession' });
  }

  /** Declares how unsafe requests without a valid CSRF token are handled. */
  static protectFromForgery(options: { with: CsrfStrategy }): void {
    declareCsrfStrategy(this, options.with);
  }

  /**
   * Whether the mount's gate (Edition B: the Bearer token and the permission grants) guards
   * this controller's actions. `PublicResourcesController` sets false.
   */
  static gated = true;
}
