// The screens' design, New / Edit: "`confirm: true` fields only after a recent confirmation (a
// link to confirm, keeping what was typed)". With JavaScript off: the demo's users.password is
// `confirm: true`; Ada, whose sign-in is older than the confirm window, types into her own edit
// form (and into a new user's), confirms her password, and comes back to what she typed.
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { API_KEYS, FORM, PEOPLE, signInAs, type ScreenBrowser } from './resource-screens-support.js';

/** The sessions' clock: moved past the confirm window (5 minutes) to make a sign-in's confirmation old. */
const clock = { offset: 0 };
const LATER = 10 * 60 * 1000;

/** The value of the text control named `name` on a page, or undefined when there is none. */
const typedIn = (html: string, name: string) => new RegExp(`<input type="[a-z]+" id="[^"]+" name="${name.replace(/[[\]]/g, '\\$&')}" value="([^"]*)"`).exec(html)?.[1];

describeOnEachDatabase(
  'the link to confirm a `confirm: true` field keeps what was typed',
  (demo) => {
    const api = (url: string) => demo().app.inject({ method: 'GET', url: `/api/resources/v1${url}`, headers: { authorization: API_KEYS.ada } });
    /** Ada, signed in more than the confirm window ago. */
    const oldSignIn = async (): Promise<ScreenBrowser> => {
      clock.offset = 0;
      const ada = await signInAs(demo(), PEOPLE.ada);
      clock.offset = LATER;
      return ada;
    };
    /** Confirms Ada's password on the panel's confirm page, as the browser does after the 303: answers where it sends her. */
    const confirm = async (ada: ScreenBrowser, location: string) => {
      expect(location).toMatch(/^\/panel\/confirm\?return_to=/);
      const page = await ada.get(location);
      expect(page.statusCode).toBe(200);
      const returnTo = /<input type="hidden" name="return_to" value="([^"]+)">/.exec(page.body)![1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=');
      const confirmed = await demo().app.inject({
        method: 'POST',
        url: '/panel/confirm',
        headers: { ...FORM, cookie: ada.cookie, origin: 'http://localhost:80' },
        payload: new URLSearchParams({ csrf_token: ada.csrf, password: 'demo-password', return_to: returnTo }).toString(),
      });
      expect(confirmed.statusCode).toBe(303);
      const session = confirmed.cookies.find((c) => c.name === 'panel_session')!;
      const cookie = `panel_session=${session.value}`;
      return { location: confirmed.headers.location as string, get: (url: string) => demo().app.inject({ method: 'GET', url, headers: { cookie } }), cookie };
    };

    it('"a link to confirm, keeping what was typed": the edit form\'s "Confirm your password" posts what was typed, and after the confirmation the form shows it again, with the password control; nothing was written, and no typed value is in a URL', async () => {
      const ada = await oldSignIn();
      const before = (await api('/users/1')).json().record;
      const form = await ada.get('/panel/resources/users/1/edit');
      expect(form.statusCode).toBe(200);
      expect(form.body).not.toContain('name="record[password]"');
      // The way to confirm is a button of the form itself (it posts what was typed), after Save, so Enter still saves.
      const inForm = form.body.slice(form.body.indexOf('<form method="post" action="/panel/resources/users/1"'), form.body.indexOf('</form>', form.body.indexOf('action="/panel/resources/users/1"')));
      expect(inForm).toMatch(/<button class="primary">Save changes<\/button>[\s\S]*<button name="then" value="confirm"[^>]*>Confirm your password<\/button>/);
      const kept = await ada.post('/panel/resources/users/1', [['record[name]', 'Ada King'], ['record[email]', 'ada.king@example.com'], ['record[admin]', 'false'], ['record[admin]', 'true'], ['record[password]', 'typed-before-confirming'], ['then', 'confirm']]);
      expect(kept.statusCode).toBe(303);
      const location = kept.headers.location as string;
      expect(location).not.toMatch(/King|ada\.king|typed-before/);
      expect((await api('/users/1')).json().record).toEqual(before);
      const back = await confirm(ada, location);
      expect(back.location).toMatch(/^\/panel\/resources\/users\/1\/edit\?draft=[A-Za-z0-9_-]+$/);
      const restored = await back.get(back.location);
      expect(restored.statusCode).toBe(200);
      expect(typedIn(restored.body, 'record[name]')).toBe('Ada King');
      expect(typedIn(restored.body, 'record[email]')).toBe('ada.king@example.com');
      expect(restored.body).toMatch(/name="record\[admin\]" value="true" checked/);
      // Passwords are never kept: the password control is offered now, empty.
      expect(restored.body).toContain('<input type="password" id="record-password" name="record[password]" value=""');
      expect(restored.body).not.toContain('typed-before-confirming');
      expect(restored.body).not.toContain('name="then" value="confirm"');
      // Taken once: the same URL again shows the stored record.
      expect(typedIn((await back.get(back.location)).body, 'record[name]')).toBe(before.name);
      expect((await api('/users/1')).json().record).toEqual(before);
    });

    it('the new form keeps what was typed the same way, and a kept form is only its own session\'s, only on its own form', async () => {
      const ada = await oldSignIn();
      const form = await ada.get('/panel/resources/users/new');
      expect(form.body).toContain('name="then" value="confirm"');
      const kept = await ada.post('/panel/resources/users', [['record[name]', 'Grace Hopper'], ['record[email]', 'grace@example.com'], ['then', 'confirm']]);
      expect(kept.statusCode).toBe(303);
      const returnTo = new URL(kept.headers.location as string, 'http://localhost').searchParams.get('return_to')!;
      expect(returnTo).toMatch(/^\/panel\/resources\/users\/new\?draft=[A-Za-z0-9_-]+$/);
      const draft = new URL(returnTo, 'http://localhost').searchParams.get('draft')!;
      // Another session of the same user, and another form of the same session, get nothing.
      const elsewhere = await signInAs(demo(), PEOPLE.ada);
      expect(typedIn((await elsewhere.get(returnTo)).body, 'record[name]')).toBe('');
      expect(typedIn((await ada.get(`/panel/resources/users/1/edit?draft=${draft}`)).body, 'record[name]')).not.toBe('Grace Hopper');
      const other = await ada.post('/panel/resources/users', [['record[name]', 'Katherine Johnson'], ['then', 'confirm']]);
      const back = await confirm(ada, other.headers.location as string);
      const restored = await back.get(back.location);
      expect(typedIn(restored.body, 'record[name]')).toBe('Katherine Johnson');
      expect(restored.body).toContain('name="record[password]"');
      // Saved from the restored form, with a password: created.
      const created = await demo().app.inject({
        method: 'POST',
        url: '/panel/resources/users',
        headers: { ...FORM, cookie: back.cookie, origin: 'http://localhost:80' },
        payload: new URLSearchParams({ csrf_token: ada.csrf, 'record[name]': 'Katherine Johnson', 'record[email]': 'katherine@example.com', 'record[password]': 'a long password' }).toString(),
      });
      expect(created.statusCode).toBe(303);
      expect(created.headers.location).toMatch(/^\/panel\/resources\/users\/\d+$/);
    });

    it('a form sent after its confirmation lapsed (the password control shown, then more than the confirm window) is not lost: it is kept the same way, and back on the form a notice asks for the password typed again', async () => {
      clock.offset = 0;
      const ada = await signInAs(demo(), PEOPLE.ada);
      const before = (await api('/users/1')).json().record;
      expect((await ada.get('/panel/resources/users/1/edit')).body).toContain('name="record[password]"');
      clock.offset = LATER;
      const lapsed = await ada.post('/panel/resources/users/1', [['record[name]', 'Ada Byron'], ['record[email]', before.email], ['record[password]', 'a new password']]);
      expect(lapsed.statusCode).toBe(303);
      expect(lapsed.headers.location).not.toMatch(/Byron|new/);
      expect((await api('/users/1')).json().record).toEqual(before);
      const back = await confirm(ada, lapsed.headers.location as string);
      // The browser keeps the notice cookie set with the 303 until a screen shows it.
      const notice = lapsed.cookies.find((c) => c.name === 'panel_notice')!;
      const restored = await demo().app.inject({ method: 'GET', url: back.location, headers: { cookie: `${back.cookie}; panel_notice=${notice.value}` } });
      expect(typedIn(restored.body, 'record[name]')).toBe('Ada Byron');
      expect(restored.body).toContain('<input type="password" id="record-password" name="record[password]" value=""');
      expect(restored.body).not.toContain('a new password');
      expect(restored.body).toMatch(/role="status"[^>]*>[^<]*type any password again/);
    });

    it('keeping what was typed is a POST like any other: without the CSRF token it is the "form expired" page and nothing is kept; a user the scope or the policy refuses gets the 404 or 403 page', async () => {
      const ada = await oldSignIn();
      const forged = await ada.post('/panel/resources/users/1', [['record[name]', 'Forged'], ['then', 'confirm']], { csrf: false });
      expect(forged.statusCode).toBe(403);
      expect(forged.headers.location).toBeUndefined();
      // Rita reads only her own user and creates none: Ada's is the 404 page, a new one the 403 page.
      const rita = await signInAs(demo(), PEOPLE.rita);
      for (const [url, status] of [['/panel/resources/users/1', 404], ['/panel/resources/users', 403]] as const) {
        const refused = await rita.post(url, [['record[name]', 'Taken over'], ['then', 'confirm']]);
        expect(refused.statusCode, url).toBe(status);
        expect(refused.headers.location, url).toBeUndefined();
      }
    });
  },
  { session: { now: () => Date.now() + clock.offset } },
);
