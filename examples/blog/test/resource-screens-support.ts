import type { LightMyRequestResponse } from 'fastify';
import type { DemoApp } from '../src/build-app.js';

/** The demo's people: Ada (admin), Rita and Carl (not admins); every one signs in with the demo password. */
export const PEOPLE = { ada: 'ada@example.com', rita: 'rita@example.com', carl: 'carl@example.com' } as const;

/** The API keys of the code-hook path: `demo-admin-key` is Ada, `demo-reader-key` is Rita. */
export const API_KEYS = { ada: 'ApiKey demo-admin-key', rita: 'ApiKey demo-reader-key' } as const;

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

/** A signed-in browser on the demo through `app.inject`: its cookie, its CSRF token, and GET / POST as it. */
export interface ScreenBrowser {
  readonly cookie: string;
  readonly csrf: string;
  get(url: string): Promise<LightMyRequestResponse>;
  /** Posts a form (its fields as pairs), with the session's CSRF token unless `csrf: false`, from the page's own origin. */
  post(url: string, fields: readonly (readonly [string, string])[], options?: { csrf?: boolean; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

/** Signs `email` in on the panel's sign-in page and reads the CSRF token from the shell. */
export async function signInAs(demo: DemoApp, email: string): Promise<ScreenBrowser> {
  const signIn = await demo.app.inject({ method: 'POST', url: '/panel/login', payload: new URLSearchParams({ email, password: 'demo-password' }).toString(), headers: FORM });
  const session = signIn.cookies.find((c) => c.name === 'panel_session');
  if (!session) throw new Error(`${email} could not sign in: ${signIn.statusCode}`);
  const cookie = `panel_session=${session.value}`;
  const home = await demo.app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(home.body)![1]!;
  return {
    cookie,
    csrf,
    get: (url) => demo.app.inject({ method: 'GET', url, headers: { cookie } }),
    post: (url, fields, options = {}) =>
      demo.app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, cookie, origin: 'http://localhost:80', ...options.headers },
        payload: new URLSearchParams([...(options.csrf === false ? [] : [['csrf_token', csrf] as [string, string]]), ...fields.map(([name, value]): [string, string] => [name, value])]).toString(),
      }),
  };
}

/** The ids of the records a list screen shows, in order (each row's header links to the record). */
export function listedIds(html: string): number[] {
  return [...html.matchAll(/<th scope="row"><a href="\/panel\/resources\/[a-z_]+\/(\d+)">/g)].map((match) => Number(match[1]));
}

/** The text of a screen's `<main>` (tags dropped, entities as written). */
export function mainText(html: string): string {
  const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  return main.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}
