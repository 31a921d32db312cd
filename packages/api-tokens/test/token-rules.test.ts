import { describe, expect, it } from 'vitest';
import { PanelConfigError, isPanelError } from '@panel/core';
import {
  DEFAULT_LIST_VERBS,
  GRANT_VERBS,
  GrantInvalidError,
  MIN_PEPPER_LENGTH,
  PEPPER_ENV,
  TokenNotFoundError,
  TokenPepperError,
  TokenTransitionError,
  configurePanelApi,
  grantKey,
  isGrantVerb,
  normalizeGrants,
  pepperProblem,
  resolveTokenPepper,
  tokenStatus,
  type GrantInput,
} from '../src/index.js';

const PEPPER = 'p'.repeat(MIN_PEPPER_LENGTH);

/** The message of the GrantInvalidError `normalizeGrants` throws for `inputs`. */
function grantRefusal(inputs: readonly GrantInput[], resources?: readonly string[], defaultList = false): string {
  try {
    normalizeGrants(inputs, { resources }, defaultList);
  } catch (error) {
    expect(error).toBeInstanceOf(GrantInvalidError);
    expect((error as GrantInvalidError).code).toBe('PANEL_API_ERR_GRANT_INVALID');
    return (error as Error).message;
  }
  throw new Error(`normalizeGrants accepted ${JSON.stringify(inputs)}`);
}

describe('permission grants: "a pair (resource, verb). Verbs map 1:1 to actions: index, show, create, update, destroy"', () => {
  it('has exactly the five verbs of the API\'s actions, and the default list only the two reads', () => {
    expect([...GRANT_VERBS]).toEqual(['index', 'show', 'create', 'update', 'destroy']);
    expect([...DEFAULT_LIST_VERBS]).toEqual(['index', 'show']);
    for (const verb of GRANT_VERBS) expect(isGrantVerb(verb)).toBe(true);
    for (const other of ['related', 'Index', 'INDEX', ' index', 'list', '', undefined, null, 1, ['index']]) expect(isGrantVerb(other), String(other)).toBe(false);
  });

  it('reads a grant as an object or as "<route_key>:<verb>", the form a checkbox posts', () => {
    expect(normalizeGrants(['blog_posts:index', { resource: 'comments', verb: 'destroy' }], {})).toEqual([
      { resource: 'blog_posts', verb: 'index' },
      { resource: 'comments', verb: 'destroy' },
    ]);
    expect(grantKey({ resource: 'blog_posts', verb: 'show' })).toBe('blog_posts:show');
  });

  it('drops duplicates, whichever way each is written, and sorts by "<route_key>:<verb>"', () => {
    const grants = normalizeGrants(['products:show', 'blog_posts:update', { resource: 'products', verb: 'show' }, 'blog_posts:create', 'products:show'], {});
    expect(grants.map(grantKey)).toEqual(['blog_posts:create', 'blog_posts:update', 'products:show']);
    expect(normalizeGrants([], {})).toEqual([]);
  });

  it('refuses a string without a resource or with a verb the API does not have, quoting it', () => {
    for (const bad of ['blog_posts', ':index', 'blog_posts:', 'blog_posts:Index', 'blog_posts:related', 'blog_posts: index', '']) {
      expect(grantRefusal([bad]), bad).toBe(`A grant must read "<route_key>:<verb>" with a verb among index, show, create, update, destroy, instead got "${bad}".`);
    }
  });

  it('refuses an object without a string resource or a known verb, and anything that is neither', () => {
    for (const bad of [{ resource: 'blog_posts', verb: 'publish' }, { resource: 7, verb: 'index' }, { verb: 'index' }, null, 42] as unknown as GrantInput[]) {
      expect(grantRefusal([bad]), JSON.stringify(bad)).toMatch(/^A grant must be \{ resource, verb \} with a verb among index, show, create, update, destroy, instead got /);
    }
  });

  it('refuses the whole list when one grant is bad, so a half-applied list is never returned', () => {
    expect(grantRefusal(['blog_posts:index', 'blog_posts:publish', 'comments:show'])).toContain('"blog_posts:publish"');
  });

  it('accepts only the panel\'s route keys when the service knows them, naming them', () => {
    expect(normalizeGrants(['blog_posts:index'], { resources: ['blog_posts', 'comments'] })).toHaveLength(1);
    expect(grantRefusal(['users:index'], ['blog_posts', 'comments'])).toBe('A grant names the resource "users", which the panel does not define. Known resources: blog_posts, comments.');
    // A route key is matched exactly: no case folding, no singular for plural.
    expect(grantRefusal(['Blog_posts:index'], ['blog_posts'])).toContain('"Blog_posts"');
    expect(grantRefusal(['blog_post:index'], ['blog_posts'])).toContain('"blog_post"');
    expect(grantRefusal(['blog_posts:index'], [])).toContain('Known resources: none.');
  });

  it('splits a grant at its last colon, so a route key with a colon in it is judged whole', () => {
    expect(normalizeGrants(['legacy:posts:show'], {})).toEqual([{ resource: 'legacy:posts', verb: 'show' }]);
    expect(grantRefusal(['blog_posts:extra:show'], ['blog_posts'])).toContain('"blog_posts:extra"');
  });

  it('"The default permissions list may grant only index and show; writes always need a Bearer token"', () => {
    expect(normalizeGrants(['comments:index', 'comments:show'], {}, true)).toHaveLength(2);
    for (const verb of ['create', 'update', 'destroy']) {
      expect(grantRefusal([`comments:${verb}`], undefined, true)).toBe(`The default permissions list may grant only index and show, instead got "comments:${verb}": writes always need a Bearer token.`);
    }
    // A token's own grants "may include any verb, including writes".
    expect(normalizeGrants(['comments:destroy'], {}, false)).toEqual([{ resource: 'comments', verb: 'destroy' }]);
  });
});

describe('the token pepper: "Source: credentials … (preferred) or the environment variable PANEL_API_TOKEN_PEPPER"', () => {
  it('takes the app\'s own source first, else the environment variable', () => {
    expect(resolveTokenPepper(PEPPER, { [PEPPER_ENV]: 'e'.repeat(40) })).toBe(PEPPER);
    expect(resolveTokenPepper(undefined, { [PEPPER_ENV]: 'e'.repeat(40) })).toBe('e'.repeat(40));
    expect(resolveTokenPepper(null, { [PEPPER_ENV]: 'e'.repeat(40) })).toBe('e'.repeat(40));
  });

  it('calls a function source on every use, so a secret loaded after boot is picked up; a function answering nothing falls back to the environment', () => {
    let loaded: string | undefined;
    const source = () => loaded;
    expect(resolveTokenPepper(source, { [PEPPER_ENV]: 'e'.repeat(40) })).toBe('e'.repeat(40));
    loaded = PEPPER;
    expect(resolveTokenPepper(source, { [PEPPER_ENV]: 'e'.repeat(40) })).toBe(PEPPER);
  });

  it('"Required. Token creation and authentication raise until it is set": the error names the variable and the fix', () => {
    expect(() => resolveTokenPepper(undefined, {})).toThrow(TokenPepperError);
    expect(() => resolveTokenPepper(undefined, {})).toThrow(`Panel API tokens need a pepper, and none is set. Fix: pass \`pepper\` from your secret store (it takes precedence) or set ${PEPPER_ENV}`);
    expect(() => resolveTokenPepper(undefined, { [PEPPER_ENV]: '' })).toThrow(/none is set/);
  });

  it('a blank pepper from the app\'s source counts as missing: it does not quietly fall back to the environment', () => {
    expect(() => resolveTokenPepper('', { [PEPPER_ENV]: 'e'.repeat(40) })).toThrow(/none is set/);
  });

  it('refuses a pepper shorter than 32 characters, naming where it came from and its length but never its value', () => {
    const short = 'hunter2-is-not-a-pepper';
    let message = '';
    try {
      resolveTokenPepper(short, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(`Panel API tokens: pepper must be a string of 32 or more characters, instead got ${short.length} characters.`);
    expect(message).not.toContain(short);
    expect(() => resolveTokenPepper(undefined, { [PEPPER_ENV]: short })).toThrow(`${PEPPER_ENV} must be a string of 32 or more characters`);
    expect(() => resolveTokenPepper('x'.repeat(31), {})).toThrow(TokenPepperError);
    expect(resolveTokenPepper('x'.repeat(32), {})).toBe('x'.repeat(32));
    expect(() => resolveTokenPepper((() => 12345) as never, {})).toThrow(/instead got number/);
  });

  it('pepperProblem answers the same question without throwing, for the boot-time warning', () => {
    expect(pepperProblem(PEPPER, {})).toBeUndefined();
    expect(pepperProblem(undefined, { [PEPPER_ENV]: PEPPER })).toBeUndefined();
    expect(pepperProblem(undefined, {})).toMatch(/^Panel API tokens need a pepper/);
    expect(pepperProblem(() => {
      throw new Error('vault sealed');
    }, {})).toBe('vault sealed');
  });
});

describe('a token\'s status: "one of Active, Disabled, Expired, Revoked"', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const past = new Date('2026-11-22T09:59:59Z');
  const future = new Date('2026-11-22T10:00:01Z');

  it('"blank means the token never expires"', () => {
    expect(tokenStatus('active', null, now)).toBe('Active');
    expect(tokenStatus('disabled', null, now)).toBe('Disabled');
  });

  it('is Expired from the expiry moment on, whether it was active or disabled', () => {
    expect(tokenStatus('active', future, now)).toBe('Active');
    expect(tokenStatus('active', now, now)).toBe('Expired');
    expect(tokenStatus('active', past, now)).toBe('Expired');
    expect(tokenStatus('disabled', past, now)).toBe('Expired');
  });

  it('"Revoked … permanent": revocation wins over expiry', () => {
    expect(tokenStatus('revoked', null, now)).toBe('Revoked');
    expect(tokenStatus('revoked', past, now)).toBe('Revoked');
    expect(tokenStatus('revoked', future, now)).toBe('Revoked');
  });
});

describe('configurePanelApi', () => {
  it('returns Edition B options, frozen, with the defaults filled in', () => {
    const config = configurePanelApi({ pepper: PEPPER });
    expect(config).toMatchObject({ edition: 'B', pepper: PEPPER, signedUrlTtlSeconds: 300 });
    expect(Object.isFrozen(config)).toBe(true);
    expect(typeof config.manageTokensIf).toBe('function');
  });

  it('takes a signed-URL lifetime of 1 second to 7 days, in whole seconds', () => {
    expect(configurePanelApi({ signedUrlTtlSeconds: 1 }).signedUrlTtlSeconds).toBe(1);
    expect(configurePanelApi({ signedUrlTtlSeconds: 604800 }).signedUrlTtlSeconds).toBe(604800);
    for (const bad of [604801, 1.5, -1, Number.POSITIVE_INFINITY]) {
      expect(() => configurePanelApi({ signedUrlTtlSeconds: bad }), String(bad)).toThrow(`signedUrlTtlSeconds must be a whole number of seconds from 1 to 604800, instead got ${String(bad)}`);
    }
  });

  it('takes a pepper as a string or a function, and refuses anything else at startup', () => {
    expect(configurePanelApi({ pepper: () => PEPPER }).pepper).toBeTypeOf('function');
    expect(configurePanelApi({ pepper: null }).pepper).toBeNull();
    for (const bad of [42, { value: PEPPER }, true]) {
      expect(() => configurePanelApi({ pepper: bad as never }), JSON.stringify(bad)).toThrow(PanelConfigError);
      expect(() => configurePanelApi({ pepper: bad as never })).toThrow(/pepper must be a string or a function returning one/);
    }
  });
});

describe('the token service\'s errors', () => {
  const errors = [
    [new TokenPepperError('x'), 'PANEL_API_ERR_TOKEN_PEPPER'],
    [new TokenTransitionError('x'), 'PANEL_API_ERR_TOKEN_TRANSITION'],
    [new GrantInvalidError('x'), 'PANEL_API_ERR_GRANT_INVALID'],
    [new TokenNotFoundError(12), 'PANEL_API_ERR_TOKEN_NOT_FOUND'],
  ] as const;

  it('each has a stable code, and a message fit to show', () => {
    for (const [error, code] of errors) {
      expect(error.code).toBe(code);
      expect(error).toBeInstanceOf(Error);
    }
    expect(new TokenNotFoundError(12).message).toBe('No API token with id 12.');
  });

  // One error table: every package's codes are in one registry, so isPanelError recognises the
  // token service's errors by their code.
  it('is recognised by isPanelError, by its code', () => {
    for (const [error, code] of errors) expect(isPanelError(error, code as never), code).toBe(true);
  });
});
