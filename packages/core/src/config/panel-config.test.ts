import { describe, expect, it } from 'vitest';
import { normalizePanelConfig } from './panel-config.js';

describe('normalizePanelConfig', () => {
  it('fills the defaults: perPage 24, maxPerPage 100, rootPath /panel, currentUserMethod currentUser', () => {
    expect(normalizePanelConfig()).toEqual({
      perPage: 24,
      maxPerPage: 100,
      rootPath: '/panel',
      currentUserMethod: 'currentUser',
      authorizationClient: null,
      license: { features: ['api'] },
      sessionSecret: null,
      sessionCookie: 'panel_session',
    });
  });

  it('validates the count option: absent by default (the exact count), complete when given', () => {
    expect(normalizePanelConfig().count).toBeUndefined();
    expect(normalizePanelConfig({ count: 'estimate' }).count).toEqual({ strategy: 'estimate', exactBelow: 100_000 });
    expect(normalizePanelConfig({ count: { strategy: 'cached', maxAgeMs: 5_000 } }).count).toMatchObject({ strategy: 'cached', maxAgeMs: 5_000, maxEntries: 1_000 });
    expect(() => normalizePanelConfig({ count: { strategy: 'estimate', exactBelow: 1.5 } })).toThrow(/^Panel config: count\.exactBelow must be a whole number of at least 0, instead got 1\.5\. Fix: /);
  });

  it('returns a frozen config', () => {
    expect(Object.isFrozen(normalizePanelConfig({ perPage: 10 }))).toBe(true);
  });

  it('fails fast naming the option, the value and the fix', () => {
    expect(() => normalizePanelConfig({ perPage: 0 })).toThrow(
      'Panel config: perPage must be a positive whole number, instead got 0. Fix: set perPage to a number such as 24, or leave it out for the default 24.',
    );
    expect(() => normalizePanelConfig({ maxPerPage: '50' as unknown as number })).toThrow(/maxPerPage must be a positive whole number, instead got "50"/);
    expect(() => normalizePanelConfig({ perPage: 200 })).toThrow(/perPage \(200\) is larger than maxPerPage \(100\)/);
    expect(() => normalizePanelConfig({ rootPath: 'panel' })).toThrow(/rootPath must be a URL path/);
    expect(() => normalizePanelConfig({ currentUserMethod: 'current user' })).toThrow(/currentUserMethod must be the name of a controller method/);
    expect(() => normalizePanelConfig({ license: { features: ['api', 'tokens' as 'api'] } })).toThrow(/license must be/);
    expect(() => normalizePanelConfig({ perpage: 10 } as never)).toThrow(/unknown option "perpage"/);
  });
});
