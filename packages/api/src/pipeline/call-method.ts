/** Whether a method's result is to be awaited (a promise, or any thenable an app's code returns). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

/**
 * Calls the controller's method `method` by name (a before-action, the current-user method, an
 * action): its result, a promise when it is async. A name that is no method is a `TypeError`.
 */
export function callMethod(controller: object, method: string): unknown {
  const fn = (controller as Record<string, unknown>)[method];
  if (typeof fn !== 'function') {
    throw new TypeError(`${controller.constructor.name}: before-action "${method}" is not a method of the controller.`);
  }
  return (fn as () => unknown).call(controller);
}
