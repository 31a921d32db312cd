// Issue 42, M1 and L3: "a confirm: true field (and every password field) is not writable on the
// token path or the code-hook path unless the app opts in per field, and answers like a readonly
// field; the demo's password is writable only by the user themself; a password change, by any
// path, ends that user's other panel sessions in both editions". Over HTTP on the demo.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';
import { FORM, signInAs } from './resource-screens-support.js';
import type { DemoApp } from '../src/build-app.js';

const V1 = '/api/resources/v1';
type Method = 'GET' | 'PATCH';

const digestOf = (demo: DemoApp, id: number) => demo.database.db.selectFrom('users').select('password_digest').where('id', '=', id).executeTakeFirstOrThrow().then((row) => row.password_digest as string);
const signInStatus = async (demo: DemoApp, email: string, password: string) =>
  (await demo.app.inject({ method: 'POST', url: '/panel/login', remoteAddress: '10.9.9.9', payload: new URLSearchParams({ email, password }).toString(), headers: FORM })).statusCode;
const api = (demo: DemoApp, method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  demo.app.inject({ method, url: `${V1}${url}`, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
/** The cookie a response sealed again, else the one sent. */
const renewed = (response: LightMyRequestResponse, cookie: string) => {
  const set = response.cookies.find((c) => c.name === 'panel_session');
  return set && set.value !== '' ? `panel_session=${set.value}` : cookie;
};

describeOnEachDatabase('sensitive fields in Edition A (API keys are the code-hook path)', (demo) => {
  it('"not writable on the code-hook path ... answers exactly like a readonly field": Ada\'s and Rita\'s API keys send a password; it is ignored like an unknown key (byte-identical answer) and cannot sign in', async () => {
    const before = await digestOf(demo(), 2);
    for (const key of [ADMIN, READER]) {
      const sent = await api(demo(), 'PATCH', '/users/2', key, { user: { password: 'chosen-by-a-key' } });
      const unknown = await api(demo(), 'PATCH', '/users/2', key, { user: { no_such_field: 'chosen-by-a-key' } });
      expect(sent.statusCode).toBe(200);
      expect(sent.body).toBe(unknown.body);
    }
    expect(await digestOf(demo(), 2)).toBe(before);
    expect(await signInStatus(demo(), 'rita@example.com', 'chosen-by-a-key')).not.toBe(303);
  });

  it('"the demo\'s password is writable only by the user themself": Ada, an admin signed in on the panel, cannot change Rita\'s password', async () => {
    const ada = await signInAs(demo(), 'ada@example.com');
    const before = await digestOf(demo(), 2);
    const response = await api(demo(), 'PATCH', '/users/2', { cookie: ada.cookie, 'x-csrf-token': ada.csrf }, { user: { password: 'chosen-by-ada' } });
    expect(response.statusCode).toBe(200);
    expect(await digestOf(demo(), 2)).toBe(before);
  });

  it('"a password change ... ends that user\'s other panel sessions": Rita changes her own through her panel session; her other browser is signed out, the one that changed it is not', async () => {
    const here = await signInAs(demo(), 'rita@example.com');
    const there = await signInAs(demo(), 'rita@example.com');
    const change = await api(demo(), 'PATCH', '/users/2', { cookie: here.cookie, 'x-csrf-token': here.csrf }, { user: { password: 'rita-chose-this' } });
    expect(change.statusCode).toBe(200);
    expect((await api(demo(), 'GET', '/users/2', { cookie: there.cookie })).statusCode).toBe(401);
    const kept = renewed(change, here.cookie);
    expect((await api(demo(), 'GET', '/users/2', { cookie: kept })).statusCode).toBe(200);
    expect(await signInStatus(demo(), 'rita@example.com', 'rita-chose-this')).toBe(303);
    // Put the demo password back the same way.
    expect((await api(demo(), 'PATCH', '/users/2', { cookie: kept, 'x-csrf-token': here.csrf }, { user: { password: 'demo-password' } })).statusCode).toBe(200);
  });
});

describeOnEachDatabase(
  'sensitive fields in Edition A, unpermittedAttributes: reject',
  (demo) => {
    it('"answers exactly like a readonly field": an API key\'s password is named "is not a permitted attribute", as an unknown key is', async () => {
      const response = await api(demo(), 'PATCH', '/users/2', READER, { user: { password: 'chosen-by-a-key', no_such_field: 1 } });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ password: ['is not a permitted attribute'], no_such_field: ['is not a permitted attribute'] });
    });
  },
  { api: { unpermittedAttributes: 'reject' } },
);

describeOnEachDatabase(
  'sensitive fields in Edition B (tokens)',
  (demo) => {
    it('M1: "a token with only users:update" cannot set Ada\'s password (ignored like a readonly field), so it cannot sign in as her; nor can a token with every grant', async () => {
      const { secret } = await demo().tokens!.create({ name: 'users:update only', grants: ['users:update'], createdById: 1 });
      const before = await digestOf(demo(), 1);
      for (const bearer of [secret, demo().tokenSecrets!.get('all')!]) {
        const response = await api(demo(), 'PATCH', '/users/1', { authorization: `Bearer ${bearer}` }, { user: { password: 'chosen' } });
        expect(response.statusCode).toBe(200);
      }
      expect(await digestOf(demo(), 1)).toBe(before);
      expect(await signInStatus(demo(), 'ada@example.com', 'chosen')).not.toBe(303);
    });

    it('L3: "a password change, by any path, ends that user\'s other panel sessions" in Edition B: Rita changes hers on the screens; her other browser is signed out, this one is not', async () => {
      const here = await signInAs(demo(), 'rita@example.com');
      const there = await signInAs(demo(), 'rita@example.com');
      const posts = (cookie: string) => api(demo(), 'GET', '/blog_posts', { cookie }).then((r) => r.statusCode);
      expect(await posts(there.cookie)).toBe(200);
      const saved = await here.post('/panel/resources/users/2', [['record[password]', 'rita-chose-this']]);
      expect(saved.statusCode).toBe(303);
      expect(await posts(there.cookie)).toBe(401);
      expect(await posts(renewed(saved, here.cookie))).toBe(200);
      expect(await signInStatus(demo(), 'rita@example.com', 'rita-chose-this')).toBe(303);
    });
  },
  { edition: 'B' },
);
