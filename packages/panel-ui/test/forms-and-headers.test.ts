import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { PANEL_CONTENT_SECURITY_POLICY, PANEL_SECURITY_HEADERS, formProblem, parseFormBody, screenPaths, securePanelPages } from '../src/index.js';
import * as securityEntry from '../src/security/index.js';

// The bad-request code, which the error table answers with 400 (the screens' own test checks the status over HTTP).
const BAD_REQUEST = 'PANEL_API_ERR_BAD_REQUEST';

const refusalOf = (body: string): Error & { code?: string } => {
  try {
    parseFormBody(body);
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error(`parseFormBody accepted ${JSON.stringify(body)}`);
};

describe('parseFormBody: the forms of every panel page', () => {
  it('collects a name ending in [] in posting order and keeps the last value of any other name', () => {
    const form = parseFormBody('grants%5B%5D=blog_posts%3Aindex&name=first&grants%5B%5D=blog_posts%3Ashow&name=second');
    expect(form).toEqual({ 'grants[]': ['blog_posts:index', 'blog_posts:show'], name: 'second' });
  });

  it('cannot be made to turn a plain field into a list by posting it twice', () => {
    const form = parseFormBody('csrf_token=a&csrf_token=b&csrf_token=c');
    expect(form.csrf_token).toBe('c');
    expect(typeof form.csrf_token).toBe('string');
  });

  it('decodes + and percent escapes as a browser posts them, and keeps empty values', () => {
    expect(parseFormBody('name=Ada+Lovelace&note=caf%C3%A9&expires_at=')).toEqual({ name: 'Ada Lovelace', note: 'café', expires_at: '' });
    expect(parseFormBody('')).toEqual({});
  });

  it('a single checkbox is still a list', () => {
    expect(parseFormBody('grants%5B%5D=comments%3Aindex')).toEqual({ 'grants[]': ['comments:index'] });
  });

  it('refuses a NUL character with a bad request naming the field, before any handler sees it', () => {
    const error = refusalOf('name=ok&title=bad%00value');
    expect(error.code).toBe(BAD_REQUEST);
    expect(error.message).toContain('"title"');
  });

  it('refuses a NUL character in a field name', () => {
    const error = refusalOf('ti%00tle=x');
    expect(error.code).toBe(BAD_REQUEST);
    expect(error.message).toContain('must not contain a NUL character');
  });

  // parseFormBody's rule: "A name or value with text the database cannot store (a NUL
  // character, a lone surrogate) throws a BadRequestError (400)". The posted bytes %ED%A0%80
  // (U+D800 in UTF-8) are refused, not quietly turned into U+FFFD.
  it('refuses a lone surrogate as it documents, instead of turning it into U+FFFD', () => {
    expect(refusalOf('name=%ED%A0%80').code).toBe(BAD_REQUEST);
    expect(refusalOf('name=%ED%A0%80').message).toContain('"name"');
    expect(refusalOf('na%FFme=x').code).toBe(BAD_REQUEST);
  });

  it('keeps a malformed escape literally and a real U+FFFD as sent, as browsers do', () => {
    expect(parseFormBody('name=100%zz&other=%EF%BF%BD')).toEqual({ name: '100%zz', other: '\uFFFD' });
  });

  it('names the first field with a problem when several have one', () => {
    expect(refusalOf('first=a%00&second=b%00').message).toContain('"first"');
  });

  it('formProblem knows nothing of a body it did not read', () => {
    expect(formProblem({ name: 'x\u0000' })).toBeUndefined();
    expect(formProblem(undefined)).toBeUndefined();
    expect(formProblem('name=x')).toBeUndefined();
  });

  it('the security entry exports the same functions as the package entry (sign-in pages need no templates)', () => {
    expect(securityEntry.parseFormBody).toBe(parseFormBody);
    expect(securityEntry.securePanelPages).toBe(securePanelPages);
    expect(securityEntry.PANEL_SECURITY_HEADERS).toBe(PANEL_SECURITY_HEADERS);
  });
});

describe('the screens\' security headers', () => {
  const directives = Object.fromEntries(PANEL_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

  it('allow no inline script or style, no framing, and forms posting only to this origin', () => {
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(PANEL_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('add the clickjacking, sniffing, referrer and isolation headers, and cannot be changed at run time', () => {
    expect(PANEL_SECURITY_HEADERS).toMatchObject({
      'content-security-policy': PANEL_CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(Object.isFrozen(PANEL_SECURITY_HEADERS)).toBe(true);
    expect(() => {
      (PANEL_SECURITY_HEADERS as Record<string, string>)['x-frame-options'] = 'ALLOW';
    }).toThrow(TypeError);
  });
});

describe('securePanelPages: the app\'s own pages under the root path', () => {
  const build = async (rootPath: string) => {
    const app = Fastify();
    securePanelPages(app, { rootPath });
    app.get('/panel/login', async () => 'sign in');
    app.get('/panel', async () => 'home');
    app.get('/panelists', async () => 'not the panel');
    app.get('/api/resources/v1/posts', async () => ({ records: [] }));
    app.get('/panel/framed', async (_request, reply) => reply.header('x-frame-options', 'SAMEORIGIN').send('own header'));
    app.get('/panel/attachments/abc/photo.png', async (_request, reply) => reply.type('image/png').send(Buffer.from('png')));
    await app.ready();
    return app;
  };

  it('gives every page under the root path the headers, the root itself and a query string included', async () => {
    const app = await build('/panel');
    for (const url of ['/panel', '/panel/login', '/panel/login?return_to=%2Fpanel']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) expect(response.headers[name], `${url} ${name}`).toBe(value);
    }
    await app.close();
  });

  it('a URL the app does not have answers with the same headers as a page, so a 404 tells nothing apart', async () => {
    const app = await build('/panel');
    const missing = await app.inject({ method: 'GET', url: '/panel/api_tokens' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(PANEL_CONTENT_SECURITY_POLICY);
    expect(missing.headers['x-frame-options']).toBe('DENY');
    await app.close();
  });

  it('leaves the API, a path that only starts like the root, and file URLs alone', async () => {
    const app = await build('/panel');
    for (const url of ['/api/resources/v1/posts', '/panelists', '/panel/attachments/abc/photo.png']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy'], url).toBeUndefined();
      expect(response.headers['x-frame-options'], url).toBeUndefined();
    }
    await app.close();
  });

  it('keeps a header a route set itself', async () => {
    const app = await build('/panel');
    const response = await app.inject({ method: 'GET', url: '/panel/framed' });
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toBe(PANEL_CONTENT_SECURITY_POLICY);
    await app.close();
  });

  it('with the root path "/" covers every answer but file URLs; a trailing slash on the root path is the same root', async () => {
    const rootApp = await build('/');
    expect((await rootApp.inject({ method: 'GET', url: '/api/resources/v1/posts' })).headers['x-frame-options']).toBe('DENY');
    expect((await rootApp.inject({ method: 'GET', url: '/panel/login' })).headers['x-frame-options']).toBe('DENY');
    expect((await rootApp.inject({ method: 'GET', url: '/attachments/abc/photo.png' })).headers['x-frame-options']).toBeUndefined();
    await rootApp.close();
    const slashApp = await build('/panel/');
    expect((await slashApp.inject({ method: 'GET', url: '/panel' })).headers['x-frame-options']).toBe('DENY');
    expect((await slashApp.inject({ method: 'GET', url: '/panelists' })).headers['x-frame-options']).toBeUndefined();
    await slashApp.close();
  });
});

describe('screenPaths', () => {
  it('puts the screens under the root path', () => {
    expect(screenPaths('/panel')).toEqual({
      root: '/panel',
      tokens: '/panel/api_tokens',
      settings: '/panel/panel_api/settings',
      assets: '/panel/panel_ui/assets',
      logout: '/panel/logout',
      signIn: '/panel/login',
      confirm: '/panel/confirm',
    });
  });

  it('has no double slash under the root path "/"', () => {
    const paths = screenPaths('/');
    expect(paths.root).toBe('/');
    expect(paths.tokens).toBe('/api_tokens');
    expect(paths.settings).toBe('/panel_api/settings');
    expect(paths.assets).toBe('/panel_ui/assets');
    for (const path of Object.values(paths)) expect(path, path).not.toContain('//');
  });

  it('nests under a deeper root path', () => {
    expect(screenPaths('/admin/panel').tokens).toBe('/admin/panel/api_tokens');
  });
});
