import { beforeActionEntries, type ActionName } from './callback-chain.js';

/** One step of a controller's before-action chain for one action. */
export type ChainStep =
  /** A before-action method; `authenticates` marks `setupAuthentication`, skipped when the gate authenticated the request. */
  | { readonly kind: 'method'; readonly name: string; readonly authenticates: boolean }
  /** The mount gate's `authenticate`, before the authentication step. */
  | { readonly kind: 'authenticate' }
  /** The mount gate's `permit`, after the authentication step. */
  | { readonly kind: 'permit' };

const AUTHENTICATE: ChainStep = { kind: 'authenticate' };
const PERMIT: ChainStep = { kind: 'permit' };

const compiled = new WeakMap<object, Map<string, readonly ChainStep[]>>();

/**
 * The steps a controller class runs before `action`, built once per class, action and whether
 * a gate guards it: the before-actions that run for the action, and, when `gated`, the gate's
 * two steps around the authentication step (in its place even when the class skipped it, so a
 * controller that made an action public to `setupAuthentication` keeps the gate). A
 * before-action that does not run for the action is not in the chain at all.
 */
export function beforeActionChain(cls: object, action: ActionName, gated: boolean): readonly ChainStep[] {
  let byAction = compiled.get(cls);
  if (!byAction) {
    byAction = new Map();
    compiled.set(cls, byAction);
  }
  const key = `${action}\u0000${gated}`;
  let chain = byAction.get(key);
  if (!chain) {
    chain = build(cls, action, gated);
    byAction.set(key, chain);
  }
  return chain;
}

function build(cls: object, action: ActionName, gated: boolean): ChainStep[] {
  const steps: ChainStep[] = [];
  let placed = !gated;
  for (const { name, authenticates, runs } of beforeActionEntries(cls, action)) {
    if (authenticates && !placed) steps.push(AUTHENTICATE);
    if (runs) steps.push({ kind: 'method', name, authenticates });
    if (authenticates && !placed) {
      steps.push(PERMIT);
      placed = true;
    }
  }
  // A chain without an authentication step (a class that does not extend ControllerBase's) is gated first.
  if (!placed) steps.unshift(AUTHENTICATE, PERMIT);
  return steps;
}
