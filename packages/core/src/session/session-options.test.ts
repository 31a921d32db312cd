import { describe, expect, it } from 'vitest';
import { normalizeSessionOptions } from './session-options.js';

describe('normalizeSessionOptions', () => {
  it('fills the documented defaults: 12 h lifetime, 2 h idle, 5 min confirmation, Secure over HTTPS, 5 per account and client, 20 per address, 20 per account from new clients in 15 min', () => {
    const options = normalizeSessionOptions();
    expect({ ...options, now: undefined }).toEqual({
      lifetime: 43200,
      idleTimeout: 7200,
      confirmWindow: 300,
      secureCookies: 'auto',
      maxFailedSignInsPerAccount: 5,
      maxFailedSignInsPerAddress: 20,
      maxFailedSignInsPerAccountFromNewClients: 20,
      signInWindow: 900,
      now: undefined,
    });
    expect(options.now).toBe(Date.now);
    expect(Object.isFrozen(options)).toBe(true);
  });

  it('fails fast naming the option, the value and the fix', () => {
    expect(() => normalizeSessionOptions({ lifetime: 0 })).toThrow('Panel config: session.lifetime must be a positive whole number, instead got 0. Fix: set session.lifetime to a number such as 43200, or leave it out for the default 43200.');
    expect(() => normalizeSessionOptions({ idleTimeout: '2h' as unknown as number })).toThrow(/session\.idleTimeout must be a positive whole number, instead got "2h"/);
    expect(() => normalizeSessionOptions({ lifetime: 3600, idleTimeout: 7200 })).toThrow(/session\.idleTimeout \(7200\) is longer than session\.lifetime \(3600\)/);
    expect(() => normalizeSessionOptions({ secureCookies: 'yes' as unknown as boolean })).toThrow(/session\.secureCookies must be 'auto', true or false, instead got "yes"/);
    expect(() => normalizeSessionOptions({ now: 5 as unknown as () => number })).toThrow(/session\.now must be a function/);
    expect(() => normalizeSessionOptions({ lifespan: 5 } as never)).toThrow(/unknown option "session\.lifespan"/);
    expect(() => normalizeSessionOptions({ maxFailedSignInsPerAccount: 2.5 })).toThrow(/session\.maxFailedSignInsPerAccount must be a positive whole number/);
  });
});
