import { describe, expect, it } from 'vitest';
import { Current } from '@panel/core';
import { configurePanelApi } from './configure-panel-api.js';
import { mayManageTokens } from './manage-tokens-gate.js';

const ada = { id: 1, admin: true };
const rita = { id: 2, admin: false };

describe('the manageTokensIf gate', () => {
  it('"Default: deny everyone."', async () => {
    const { manageTokensIf } = configurePanelApi();
    expect(await mayManageTokens(manageTokensIf, ada)).toBe(false);
  });

  it('takes a one-argument function of the user', async () => {
    const { manageTokensIf } = configurePanelApi({ manageTokensIf: (user) => (user as typeof ada).admin });
    expect(await mayManageTokens(manageTokensIf, ada)).toBe(true);
    expect(await mayManageTokens(manageTokensIf, rita)).toBe(false);
  });

  it('takes a zero-argument function "evaluated with current_user available" (Current.user)', async () => {
    const { manageTokensIf } = configurePanelApi({ manageTokensIf: () => (Current.user as typeof ada | null)?.admin });
    expect(await mayManageTokens(manageTokensIf, ada)).toBe(true);
    expect(await mayManageTokens(manageTokensIf, rita)).toBe(false);
    expect(Current.user).toBeNull();
  });

  it('"Fail-closed: any result other than true, including a raised exception such as a nil user, denies"', async () => {
    const heard: unknown[] = [];
    const truthy = [1, 'true', {}, [], Promise.resolve(1)];
    for (const value of truthy) expect(await mayManageTokens(() => value, ada), String(value)).toBe(false);
    const throwsOnNil = (user: unknown) => (user as typeof ada).admin;
    expect(await mayManageTokens(throwsOnNil, null, (error) => heard.push(error))).toBe(false);
    expect(heard).toHaveLength(1);
    expect(await mayManageTokens(async () => { throw new Error('down'); }, ada)).toBe(false);
    expect(await mayManageTokens(async (user) => (user as typeof ada).admin, ada)).toBe(true);
  });

  it('fails fast at startup on a gate that is not a function, an unknown option or a bad signed-URL lifetime', () => {
    expect(() => configurePanelApi({ manageTokensIf: true as never })).toThrow(/manageTokensIf must be a function/);
    expect(() => configurePanelApi({ manageTokensIf: ((a: unknown, b: unknown) => a === b) as never })).toThrow(/manageTokensIf must be a function/);
    expect(() => configurePanelApi({ manage_tokens_if: () => true } as never)).toThrow(/unknown option "manage_tokens_if"/);
    expect(() => configurePanelApi({ signedUrlTtlSeconds: 0 })).toThrow(/signedUrlTtlSeconds must be a whole number/);
    expect(configurePanelApi().signedUrlTtlSeconds).toBe(300);
  });
});
