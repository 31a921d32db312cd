import { describe, expect, it } from 'vitest';
import { beforeActionChain, type ChainStep } from './before-action-chain.js';
import { declareBeforeAction, declareSkipBeforeAction } from './callback-chain.js';

const names = (chain: readonly ChainStep[]) => chain.map((step) => (step.kind === 'method' ? step.name : `<${step.kind}>`));

/** A class chain as ControllerBase declares it: the CSRF check, then the authentication step. */
function controllerClass() {
  class Base {}
  declareBeforeAction(Base, 'verifyAuthenticityToken', {});
  declareBeforeAction(Base, 'setupAuthentication', {}, true);
  class App extends Base {}
  declareBeforeAction(App, 'stampHeader', { except: 'destroy' });
  return App;
}

describe('the before-action chain of a controller and action', () => {
  it('without a gate holds only the before-actions that run for the action (one that does nothing there is not called at all)', () => {
    const App = controllerClass();
    expect(names(beforeActionChain(App, 'index', false))).toEqual(['verifyAuthenticityToken', 'setupAuthentication', 'stampHeader']);
    expect(names(beforeActionChain(App, 'destroy', false))).toEqual(['verifyAuthenticityToken', 'setupAuthentication']);
  });

  it('with a gate places its authenticate and permit steps around the authentication step, before the app\'s own', () => {
    const App = controllerClass();
    expect(names(beforeActionChain(App, 'index', true))).toEqual(['verifyAuthenticityToken', '<authenticate>', 'setupAuthentication', '<permit>', 'stampHeader']);
  });

  it('keeps the gate where the authentication step was when a class skipped it for some actions (public to the hook, still gated)', () => {
    const App = controllerClass();
    class Products extends App {}
    declareSkipBeforeAction(Products, 'setupAuthentication', { only: ['index', 'show'] });
    expect(names(beforeActionChain(Products, 'index', true))).toEqual(['verifyAuthenticityToken', '<authenticate>', '<permit>', 'stampHeader']);
    expect(names(beforeActionChain(Products, 'create', true))).toEqual(['verifyAuthenticityToken', '<authenticate>', 'setupAuthentication', '<permit>', 'stampHeader']);
  });

  it('marks only the declared authentication step as one the gate may stand in for', () => {
    const App = controllerClass();
    const chain = beforeActionChain(App, 'index', true);
    expect(chain.filter((step) => step.kind === 'method' && step.authenticates).map((step) => (step as { name: string }).name)).toEqual(['setupAuthentication']);
  });

  it('is built once per class, action and gate, and never shared between classes', () => {
    const App = controllerClass();
    const Other = controllerClass();
    expect(beforeActionChain(App, 'show', true)).toBe(beforeActionChain(App, 'show', true));
    expect(beforeActionChain(App, 'show', true)).not.toBe(beforeActionChain(App, 'show', false));
    expect(beforeActionChain(App, 'show', true)).not.toBe(beforeActionChain(Other, 'show', true));
  });
});
