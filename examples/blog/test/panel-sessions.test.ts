import { afterEach, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { describeOnEachDatabase } from './demo-app-support.js';

const OLD_SECRET = 'an-old-session-secret-of-32-characters';
const NEW_SECRET = 'a-new-session-secret-of-32-characters!';
const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/** The panel's clock in these tests: set and moved by hand, never by sleeping. */
const clock = { now: Date.parse('2026-11-22T08:00:00.000Z') };
/** Each test starts a day after the last, so no throttle window or session of another test is still open. */
const nextDay = () => (clock.now += 24 * HOUR);
const later = (ms: number) => (clock.now += ms);

const form = (fields: Record<string, string>): Pick<InjectOptions, 'payload' | 'headers'> => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const cookieOf = (response: LightMyRequestResponse, name = 'panel_session') => {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie && cookie.value !== '' ? `${name}=${cookie.value}` : undefined;
};

const extraApps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of extraApps.splice(0)) await app.close();
});

describeOnEachDatabase('panel sessions: lifetime, rotation, revocation, throttling and sudo mode', (demo) => {
  const app = () => demo().app;
  const signIn = async (email = 'ada@example.com', password = 'demo-password', server: FastifyInstance = app(), remoteAddress = '10.0.0.1') => {
    const response = await server.inject({ method: 'POST', url: '/panel/login', remoteAddress, ...form({ email, password }) });
    return { response, cookie: cookieOf(response) };
  };
  const usersStatus = async (cookie: string, server: FastifyInstance = app()) => (await server.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie } })).statusCode;
  const another = async (sessionSecret: string | string[]): Promise<DemoApp> => {
    const built = await buildDemoApp({ database: demo().database, sessionSecret, session: { now: () => clock.now } });
    extraApps.push(built.app);
    return built;
  };

  it('"an absolute lifetime": a cookie is refused 12 hours after sign-in, however busy the session was', async () => {
    nextDay();
    let { cookie } = await signIn();
    for (let hour = 1; hour < 12; hour += 1) {
      later(HOUR);
      const response = await app().inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie: cookie! } });
      expect(response.statusCode).toBe(200);
      cookie = cookieOf(response) ?? cookie;
    }
    later(HOUR);
    expect(await usersStatus(cookie!)).toBe(401);
    const page = await app().inject({ method: 'GET', url: '/panel', headers: { cookie: cookie! } });
    expect(page.body).toContain('Sign in');
  });

  it('"an idle timeout": a cookie unused for 2 hours is refused, while use keeps it alive', async () => {
    nextDay();
    const { cookie } = await signIn();
    later(2 * HOUR - MINUTE);
    const used = await app().inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie: cookie! } });
    expect(used.statusCode).toBe(200);
    const refreshed = cookieOf(used);
    expect(refreshed).toBeDefined();
    later(2 * MINUTE);
    expect(await usersStatus(cookie!)).toBe(401);
    expect(await usersStatus(refreshed!)).toBe(200);
  });

  it('a cookie sealed with a rotated-out secret still in the list is accepted and sealed again with the first; one sealed with a retired secret is refused', async () => {
    nextDay();
    const before = await another(OLD_SECRET);
    const { cookie } = await signIn('ada@example.com', 'demo-password', before.app);
    const rotated = await another([NEW_SECRET, OLD_SECRET]);
    const response = await rotated.app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie: cookie! } });
    expect(response.statusCode).toBe(200);
    const resealed = cookieOf(response);
    expect(resealed).toBeDefined();
    const retired = await another(NEW_SECRET);
    expect(await usersStatus(cookie!, retired.app)).toBe(401);
    expect(await usersStatus(resealed!, retired.app)).toBe(200);
  });

  it('keeps the CSRF token across a rotation: the token of the page still lets a write through', async () => {
    nextDay();
    const before = await another(OLD_SECRET);
    const { cookie } = await signIn('ada@example.com', 'demo-password', before.app);
    const rotated = await another([NEW_SECRET, OLD_SECRET]);
    const page = await rotated.app.inject({ method: 'GET', url: '/panel', headers: { cookie: cookie! } });
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
    const resealed = cookieOf(page)!;
    const write = await rotated.app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts', headers: { cookie: resealed, 'x-csrf-token': token! }, payload: { blog_post: { title: 'After rotation' } } });
    expect(write.statusCode).toBe(201);
    const forged = await rotated.app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts', headers: { cookie: resealed }, payload: { blog_post: { title: 'Forged' } } });
    expect(forged.statusCode).toBe(401);
  });

  it('"sign-out ... invalidate every copy of the cookie": signing out on one client refuses a copy of its cookie, not the user\'s other sessions', async () => {
    nextDay();
    const { cookie } = await signIn();
    const copy = String(cookie);
    const { cookie: otherDevice } = await signIn();
    const out = await app().inject({ method: 'POST', url: '/panel/logout', headers: { cookie: cookie!, origin: 'http://localhost:80' } });
    expect(out.statusCode).toBe(303);
    expect(out.cookies.find((c) => c.name === 'panel_session')?.value).toBe('');
    expect(await usersStatus(copy)).toBe(401);
    expect((await app().inject({ method: 'GET', url: '/panel', headers: { cookie: copy } })).body).not.toContain('Signed in as');
    expect(await usersStatus(otherDevice!)).toBe(200);
  });

  it('a sensitive action without a recent password confirmation is refused: a browser goes to the confirm page, a script gets 403', async () => {
    nextDay();
    const { cookie } = await signIn();
    expect((await app().inject({ method: 'GET', url: '/panel/security', headers: { cookie: cookie!, accept: 'text/html' } })).statusCode).toBe(200);
    later(5 * MINUTE);
    const page = await app().inject({ method: 'GET', url: '/panel/security', headers: { cookie: cookie!, accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/panel/confirm?return_to=%2Fpanel%2Fsecurity');
    const script = await app().inject({ method: 'GET', url: '/panel/security', headers: { cookie: cookie!, accept: 'application/json' } });
    expect(script.statusCode).toBe(403);
    expect(script.json()).toEqual({ error: 'Password confirmation required', confirm_path: '/panel/confirm' });
    const action = await app().inject({ method: 'POST', url: '/panel/security/sign-out-everywhere', headers: { cookie: cookie!, accept: 'application/json' } });
    expect(action.statusCode).toBe(403);
    expect(await usersStatus(cookie!)).toBe(200);
    const anonymous = await app().inject({ method: 'GET', url: '/panel/security', headers: { accept: 'text/html' } });
    expect(anonymous.headers.location).toBe('/panel/login?return_to=%2Fpanel%2Fsecurity');
  });

  it('confirming the password opens sudo mode for 5 minutes; then "sign out everywhere" ends every session of the user', async () => {
    nextDay();
    const { cookie } = await signIn();
    const { cookie: otherDevice } = await signIn();
    const { cookie: someoneElse } = await signIn('rita@example.com');
    later(10 * MINUTE);
    const confirmPage = await app().inject({ method: 'GET', url: '/panel/confirm?return_to=%2Fpanel%2Fsecurity', headers: { cookie: cookie! } });
    const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(confirmPage.body)![1]!;
    const wrong = await app().inject({ method: 'POST', url: '/panel/confirm', ...withCookie(form({ password: 'wrong', csrf_token: csrfToken, return_to: '/panel/security' }), cookie!) });
    expect(wrong.statusCode).toBe(401);
    const forged = await app().inject({ method: 'POST', url: '/panel/confirm', ...withCookie(form({ password: 'demo-password', csrf_token: 'forged', return_to: '/panel/security' }), cookie!) });
    expect(forged.statusCode).toBe(403);
    const confirmed = await app().inject({ method: 'POST', url: '/panel/confirm', ...withCookie(form({ password: 'demo-password', csrf_token: csrfToken, return_to: '/panel/security' }), cookie!) });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe('/panel/security');
    const sudo = cookieOf(confirmed)!;
    later(4 * MINUTE);
    const security = await app().inject({ method: 'GET', url: '/panel/security', headers: { cookie: sudo, accept: 'text/html' } });
    expect(security.statusCode).toBe(200);
    const everywhere = await app().inject({ method: 'POST', url: '/panel/security/sign-out-everywhere', ...withCookie(form({ csrf_token: csrfToken }), sudo) });
    expect(everywhere.statusCode).toBe(303);
    for (const copy of [cookie!, sudo, otherDevice!]) expect(await usersStatus(copy)).toBe(401);
    expect(await usersStatus(someoneElse!)).toBe(200);
    expect((await signIn()).response.statusCode).toBe(303);
  });

  it('refuses a return_to that leaves the site', async () => {
    nextDay();
    const response = await app().inject({ method: 'POST', url: '/panel/login', remoteAddress: '10.0.0.2', ...form({ email: 'ada@example.com', password: 'demo-password', return_to: '//evil.example/' }) });
    expect(response.headers.location).toBe('/panel');
  });

  it('"`Secure` + `__Host-` prefix when served over HTTPS": behind a trusted proxy, X-Forwarded-Proto https gives a __Host- cookie, read back only under that name', async () => {
    nextDay();
    const proxied = await buildDemoApp({ database: demo().database, trustProxy: true, session: { now: () => clock.now } });
    extraApps.push(proxied.app);
    const https = { 'x-forwarded-proto': 'https' };
    const signedIn = await proxied.app.inject({ method: 'POST', url: '/panel/login', ...form({ email: 'ada@example.com', password: 'demo-password' }), headers: { ...form({}).headers, ...https } });
    expect(signedIn.cookies.find((c) => c.name === '__Host-panel_session')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(signedIn.cookies.find((c) => c.name === 'panel_session')).toBeUndefined();
    const value = signedIn.cookies.find((c) => c.name === '__Host-panel_session')!.value;
    expect((await proxied.app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { ...https, cookie: `__Host-panel_session=${value}` } })).statusCode).toBe(200);
    expect((await proxied.app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { ...https, cookie: `panel_session=${value}` } })).statusCode).toBe(401);
    const forced = await buildDemoApp({ database: demo().database, session: { secureCookies: true, now: () => clock.now } });
    extraApps.push(forced.app);
    const plain = await forced.app.inject({ method: 'POST', url: '/panel/login', ...form({ email: 'ada@example.com', password: 'demo-password' }) });
    expect(plain.cookies.find((c) => c.name === '__Host-panel_session')?.secure).toBe(true);
  });

  it('"a password change ... invalidate[s] every copy of the cookie": Rita changing her password through the API signs her other sessions out everywhere', async () => {
    nextDay();
    const { cookie } = await signIn('rita@example.com');
    const { cookie: other } = await signIn('rita@example.com');
    expect(await usersStatus(other!)).toBe(200);
    const page = await app().inject({ method: 'GET', url: '/panel', headers: { cookie: cookie! } });
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)![1]!;
    // Only Rita changes her password (issue 42: never an API key or a token), on her panel session.
    const change = (password: string, current: string) =>
      app().inject({ method: 'PATCH', url: '/api/resources/v1/users/2', headers: { cookie: current, 'x-csrf-token': csrf, 'content-type': 'application/json' }, payload: JSON.stringify({ user: { password } }) });
    const changed = await change('a new password for rita', cookie!);
    expect(changed.statusCode).toBe(200);
    const kept = cookieOf(changed)!;
    try {
      expect(await usersStatus(other!)).toBe(401);
      expect((await signIn('rita@example.com', 'demo-password', app(), '10.0.0.9')).response.statusCode).not.toBe(303);
      const again = await signIn('rita@example.com', 'a new password for rita', app(), '10.0.0.9');
      expect(await usersStatus(again.cookie!)).toBe(200);
    } finally {
      expect((await change('demo-password', kept)).statusCode).toBe(200);
    }
  });
}, { session: { now: () => clock.now } });

function withCookie(options: Pick<InjectOptions, 'payload' | 'headers'>, cookie: string): Pick<InjectOptions, 'payload' | 'headers'> {
  return { ...options, headers: { ...options.headers, cookie } };
}

describeOnEachDatabase('sign-in throttling ("failed attempts limited per account and client, with backoff, and per client address")', (demo) => {
  const attempt = (email: string, password: string, remoteAddress: string) =>
    demo().app.inject({ method: 'POST', url: '/panel/login', remoteAddress, ...form({ email, password }) });

  it('"the 6th failed sign-in within the window" from one client is answered 429 with Retry-After, even with the right password, until its wait ends; other clients are not held', async () => {
    nextDay();
    for (let i = 1; i <= 5; i += 1) expect((await attempt('ada@example.com', `wrong-${i}`, '10.1.0.1')).statusCode).toBe(401);
    const sixth = await attempt('ada@example.com', 'demo-password', '10.1.0.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toBe('30');
    later(10 * 1000);
    expect((await attempt('ada@example.com', 'demo-password', '10.1.0.1')).headers['retry-after']).toBe('20');
    // Keyed on (account, client): the guesses above lock nobody else out (OWASP's account-lockout advice).
    expect((await attempt('ada@example.com', 'demo-password', '10.1.0.7')).statusCode).toBe(303);
    expect((await attempt('rita@example.com', 'demo-password', '10.1.0.8')).statusCode).toBe(303);
    later(20 * 1000);
    expect((await attempt('ada@example.com', 'demo-password', '10.1.0.1')).statusCode).toBe(303);
  });

  it('a successful sign-in starts the account afresh', async () => {
    nextDay();
    for (let i = 1; i <= 4; i += 1) expect((await attempt('ada@example.com', 'wrong', '10.2.0.1')).statusCode).toBe(401);
    expect((await attempt('ada@example.com', 'demo-password', '10.2.0.1')).statusCode).toBe(303);
    for (let i = 1; i <= 5; i += 1) expect((await attempt('ada@example.com', 'wrong', '10.2.0.1')).statusCode).toBe(401);
    expect((await attempt('ada@example.com', 'wrong', '10.2.0.1')).statusCode).toBe(429);
  });

  it('limits one client address across many accounts: the 21st failure from it is 429, other addresses are not affected', async () => {
    nextDay();
    for (let i = 1; i <= 20; i += 1) expect((await attempt(`guess-${i}@example.com`, 'wrong', '10.3.0.1')).statusCode).toBe(401);
    expect((await attempt('rita@example.com', 'demo-password', '10.3.0.1')).statusCode).toBe(429);
    expect((await attempt('rita@example.com', 'demo-password', '10.3.0.2')).statusCode).toBe(303);
  });

  it('"sign-in bounded per account across addresses": guesses at one account from an hour of fresh addresses get 20 checks, then one per doubling wait, whatever the password', async () => {
    nextDay();
    let checked = 0;
    let refusedRightPassword = 0;
    for (let minute = 0; minute < 60; minute += 1) {
      for (let i = 1; i <= 5; i += 1) {
        const status = (await attempt('ada@example.com', `guess-${minute}-${i}`, `10.6.${minute}.${i}`)).statusCode;
        if (status === 401) checked += 1;
        else expect(status).toBe(429);
      }
      // Past its free attempts, the account's right password from a new address is refused too: no oracle.
      if (minute >= 3) refusedRightPassword += (await attempt('ada@example.com', 'demo-password', `10.7.${minute}.1`)).statusCode === 429 ? 1 : 0;
      later(MINUTE);
    }
    // 20 free (minutes 0 to 3), then one slot after each wait of 30 s, 1, 2, 4 minutes, then 7.5
    // minutes (half the window) for good (minutes 4, 5, 7, 11, 19, 27, 35, 43, 51, 59): 30 checks in
    // the hour, where 300 addresses used to get 300.
    expect(checked).toBe(30);
    expect(refusedRightPassword).toBe(57);
  });

  it('the account-wide bound cannot keep the user out: her known client signs in during the attack, a new one within half of signInWindow after it; other accounts are not slowed', async () => {
    nextDay();
    expect((await attempt('ada@example.com', 'demo-password', '10.8.9.9')).statusCode).toBe(303);
    for (let i = 1; i <= 20; i += 1) expect((await attempt('ada@example.com', 'wrong', `10.8.1.${i}`)).statusCode).toBe(401);
    for (let i = 21; i <= 50; i += 1) expect((await attempt('ada@example.com', 'wrong', `10.8.1.${i}`)).statusCode).toBe(429);
    // The guesser waits out each wait and spends the slot: the waits double up to half of signInWindow and stay there.
    const waits: number[] = [];
    for (let step = 1; step <= 8; step += 1) {
      const refused = await attempt('ada@example.com', 'wrong', `10.8.4.${step}`);
      expect(refused.statusCode).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      later(waits.at(-1)! * 1000);
      expect((await attempt('ada@example.com', 'wrong', `10.8.5.${step}`)).statusCode).toBe(401);
    }
    expect(waits).toEqual([30, 60, 120, 240, 450, 450, 450, 450]);
    // The client Ada signed in from is known to her account: the bound on new clients does not hold it.
    expect((await attempt('ada@example.com', 'demo-password', '10.8.9.9')).statusCode).toBe(303);
    // Another account, from a new address, is not slowed by the guesses at Ada's.
    expect((await attempt('rita@example.com', 'demo-password', '10.8.2.1')).statusCode).toBe(303);
    // The guessing stops: a new client of Ada's waits at most half of signInWindow (450 s), then signs in.
    const held = await attempt('ada@example.com', 'demo-password', '10.8.3.1');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('450');
    later(450 * 1000);
    expect((await attempt('ada@example.com', 'demo-password', '10.8.3.1')).statusCode).toBe(303);
  });

  it('answers an unknown email exactly as a wrong password, and counts it against that email too', async () => {
    nextDay();
    const unknown = await attempt('nobody@example.com', 'demo-password', '10.4.0.1');
    const wrong = await attempt('ada@example.com', 'not-the-password', '10.4.0.2');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
    for (let i = 2; i <= 5; i += 1) await attempt('nobody@example.com', 'x', '10.4.0.1');
    expect((await attempt('NOBODY@example.com ', 'x', '10.4.0.1')).statusCode).toBe(429);
  });

  it('counts a burst of parallel guesses from one client exactly: of 12 at once, 5 are checked and 7 are throttled', async () => {
    nextDay();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt('rita@example.com', `burst-${i}`, '10.5.0.1')));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
}, { session: { now: () => clock.now } });
