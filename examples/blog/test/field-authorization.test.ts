// Field-level authorization (OWASP API3:2023, "Broken Object Property Level Authorization")
// through HTTP on the demo, whose field rules are in app/panel/policies/field-rules.ts:
// users.admin and users.email `readonly` for non-admins, users.password `confirm: true`,
// the owner keys (blog_posts.author_id, comments.user_id, profiles.user_id) `readonly` for
// non-admins with `default: ({ user }) => user?.id`, users.created_at `visible` to admins only.
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
/** The panel's clock in the session test: moved by hand past the confirmation window. */
const clock = { now: Date.parse('2026-11-22T08:00:00.000Z') };
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

describeOnEachDatabase('field rules per actor (unpermittedAttributes: ignore, the default)', (demo) => {
  const inject = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
    demo().app.inject({ method, url: `${V1}${url}`, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  const userRow = (id: number) => demo().database.db.selectFrom('users').select(['admin', 'email', 'password_digest']).where('id', '=', id).executeTakeFirstOrThrow();

  it('"A write that carries a key the actor may not write is treated exactly like an unknown key": the reader\'s {"admin":true} on herself is ignored (200, admin still false), and she still gets 302 on admin-only writes', async () => {
    const response = await inject('PATCH', '/users/2', READER, { user: { admin: true, email: 'ada@example.com', name: 'Rita Reader' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().record).toMatchObject({ id: 2, admin: false, email: 'rita@example.com' });
    expect(await userRow(2)).toMatchObject({ admin: false, email: 'rita@example.com' });
    expect((await inject('POST', '/tags', READER, { tag: { name: 'Escalated' } })).statusCode).toBe(302);
  });

  it('"no oracle": a forbidden key and an unknown key get byte-identical answers (status, body), so the answer does not tell which fields exist; the email of another user is never "has already been taken"', async () => {
    const forbidden = await inject('PATCH', '/users/2', READER, { user: { admin: true } });
    const unknown = await inject('PATCH', '/users/2', READER, { user: { no_such_field: true } });
    expect(forbidden.statusCode).toBe(unknown.statusCode);
    expect(forbidden.body).toBe(unknown.body);
    const takenEmail = await inject('PATCH', '/users/2', READER, { user: { email: 'carl@example.com' } });
    const freeEmail = await inject('PATCH', '/users/2', READER, { user: { email: 'nobody-has-this@example.com' } });
    expect([takenEmail.statusCode, freeEmail.statusCode]).toEqual([200, 200]);
    expect(takenEmail.body).toBe(freeEmail.body);
  });

  it('"the admin can still set both": an admin writes admin and email of another user', async () => {
    const response = await inject('PATCH', '/users/3', ADMIN, { user: { admin: true, email: 'carl.writer@example.com' } });
    expect(response.statusCode).toBe(200);
    expect(await userRow(3)).toMatchObject({ admin: true, email: 'carl.writer@example.com' });
    await inject('PATCH', '/users/3', ADMIN, { user: { admin: false, email: 'carl@example.com' } });
    expect(await userRow(3)).toMatchObject({ admin: false, email: 'carl@example.com' });
  });

  it('"readonly for non-admins and default to the current user on create": the reader cannot move her post, comment or profile to another user, nor create them ownerless or as someone else', async () => {
    const moved = await inject('PATCH', '/blog_posts/4', READER, { blog_post: { author_id: 3 } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().record.author).toMatchObject({ id: 2 });

    for (const author of [null, 3, 2]) {
      const created = await inject('POST', '/blog_posts', READER, { blog_post: { title: `Owned ${author}`, author_id: author } });
      expect(created.statusCode).toBe(201);
      expect(created.json().record.author).toEqual({ id: 2, label: 'Rita Reader' });
      await inject('DELETE', `/blog_posts/${created.json().record.id}`, ADMIN);
    }
    const omitted = await inject('POST', '/blog_posts', READER, { blog_post: { title: 'No author key' } });
    expect(omitted.json().record.author).toEqual({ id: 2, label: 'Rita Reader' });
    await inject('DELETE', `/blog_posts/${omitted.json().record.id}`, ADMIN);

    const comment = await inject('POST', '/comments', READER, { comment: { body: 'As Carl?', blog_post_id: 1, user_id: 3 } });
    expect(comment.statusCode).toBe(201);
    expect(comment.json().record.user).toMatchObject({ id: 2 });
    const speaking = await inject('PATCH', `/comments/${comment.json().record.id}`, READER, { comment: { user_id: 1 } });
    expect(speaking.json().record.user).toMatchObject({ id: 2 });
    await inject('DELETE', `/comments/${comment.json().record.id}`, ADMIN);

    const profile = await inject('POST', '/profiles', ADMIN, { profile: { bio: "Rita's", user_id: 2 } });
    expect(profile.statusCode).toBe(201);
    const handed = await inject('PATCH', `/profiles/${profile.json().record.id}`, READER, { profile: { user_id: 3, bio: 'Still mine' } });
    expect(handed.statusCode).toBe(200);
    expect(handed.json().record).toMatchObject({ bio: 'Still mine', user: { id: 2 } });
    await inject('DELETE', `/profiles/${profile.json().record.id}`, ADMIN);
  });

  it('an admin still writes the owner keys ("a field may take a default computed from the actor": only when the write leaves it unset)', async () => {
    const created = await inject('POST', '/blog_posts', ADMIN, { blog_post: { title: 'For Carl', author_id: 3 } });
    expect(created.json().record.author).toEqual({ id: 3, label: 'Carl Writer' });
    const defaulted = await inject('POST', '/blog_posts', ADMIN, { blog_post: { title: 'By Ada' } });
    expect(defaulted.json().record.author).toEqual({ id: 1, label: 'Ada Admin' });
    for (const post of [created, defaulted]) await inject('DELETE', `/blog_posts/${post.json().record.id}`, ADMIN);
  });

  it('"a field that is not visible is absent from the answer as if it were not on the view": users.created_at (visible to admins) is absent from the reader\'s index, show and update answers, and present in the admin\'s', async () => {
    const index = (await inject('GET', '/users', READER)).json().records;
    expect(index).toHaveLength(1);
    expect(index[0]).not.toHaveProperty('created_at');
    expect((await inject('GET', '/users/2', READER)).json().record).not.toHaveProperty('created_at');
    const updated = await inject('PATCH', '/users/2', READER, { user: { name: 'Rita Reader' } });
    expect(updated.json().record).not.toHaveProperty('created_at');
    expect((await inject('GET', '/users/2', ADMIN)).json().record.created_at).toBe('2026-01-02T09:00:00.000Z');
    const created = await inject('POST', '/users', ADMIN, { user: { name: 'Hidden Clock', email: 'hidden-clock@example.com' } });
    expect(created.json().record).toHaveProperty('created_at');
    await inject('DELETE', `/users/${created.json().record.id}`, ADMIN);
  });

  it('"cannot be sorted": sort_by a field hidden by visible: is refused exactly like an unknown field (the same 400, naming only the fields the actor may sort by)', async () => {
    const hidden = await inject('GET', '/users?sort_by=created_at', READER);
    const unknown = await inject('GET', '/users?sort_by=no_such_field', READER);
    expect(hidden.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(hidden.json().error.replace('"created_at"', '"no_such_field"')).toBe(unknown.json().error);
    expect(hidden.json().error).not.toMatch(/created_at,|created_at$|, created_at/);
    expect((await inject('GET', '/users?sort_by=created_at', ADMIN)).statusCode).toBe(200);
  });

  it('a rule that reads the record (blog_posts.view_count: admins and the post\'s author) is decided per record: the reader reads it on her posts only, cannot sort by it, and the admin reads and sorts it everywhere', async () => {
    const { records } = (await inject('GET', '/blog_posts?per_page=100&sort_by=id&sort_direction=asc', READER)).json();
    const mine = records.filter((r: { author: { id: number } | null }) => r.author?.id === 2);
    const others = records.filter((r: { author: { id: number } | null }) => r.author?.id !== 2);
    expect(mine.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    expect(mine.every((r: object) => 'view_count' in r)).toBe(true);
    expect(others.some((r: object) => 'view_count' in r)).toBe(false);
    expect((await inject('GET', `/blog_posts/${others[0].id}`, READER)).json().record).not.toHaveProperty('view_count');
    expect((await inject('GET', '/blog_posts/4', READER)).json().record).toHaveProperty('view_count');
    const sorted = await inject('GET', '/blog_posts?sort_by=view_count', READER);
    expect(sorted.statusCode).toBe(400);
    expect(sorted.json().error).toBe('sort_by must be one of id, title, published, published_on, rating, instead got "view_count"');
    const admin = (await inject('GET', '/blog_posts?per_page=100&sort_by=view_count', ADMIN)).json().records;
    expect(admin.every((r: object) => 'view_count' in r)).toBe(true);
  });

  it('"a field that is not visible … cannot be filtered, sorted, searched, selected with `fields`": the reader\'s filter[view_count] and fields=view_count (and users.created_at) answer exactly as an unknown field; the admin\'s work', async () => {
    const body = async (url: string, headers: Record<string, string>) => {
      const response = await inject('GET', url, headers);
      return { status: response.statusCode, error: response.json().error as string | undefined };
    };
    // The messages name the field asked for; with its name swapped for the unknown one, they are the same bytes.
    const filterHidden = await body('/blog_posts?filter[view_count][gte]=0', READER);
    const filterUnknown = await body('/blog_posts?filter[no_such_field][gte]=0', READER);
    expect(filterHidden.status).toBe(400);
    expect(filterHidden).toEqual({ status: filterUnknown.status, error: filterUnknown.error!.replaceAll('no_such_field', 'view_count') });
    const fieldsHidden = await body('/blog_posts?fields=title,view_count', READER);
    const fieldsUnknown = await body('/blog_posts?fields=title,no_such_field', READER);
    expect(fieldsHidden.status).toBe(400);
    expect(fieldsHidden).toEqual({ status: fieldsUnknown.status, error: fieldsUnknown.error!.replaceAll('no_such_field', 'view_count') });
    const createdHidden = await body('/users?filter[created_at][gte]=2000-01-01T00:00:00Z', READER);
    const createdUnknown = await body('/users?filter[no_such_field][gte]=2000-01-01T00:00:00Z', READER);
    expect(createdHidden).toEqual({ status: 400, error: createdUnknown.error!.replaceAll('no_such_field', 'created_at') });
    expect((await inject('GET', '/blog_posts?filter[view_count][gte]=0&fields=title,view_count', ADMIN)).statusCode).toBe(200);
  });

  it('"Association values follow the target\'s scope": a belongs_to whose target the reader cannot read keeps its id and answers label null, in the same number of statements as the admin\'s page', async () => {
    const census = (headers: Record<string, string>) => countQueries(demo().database, () => inject('GET', '/comments?per_page=100&sort_by=id&sort_direction=asc', headers));
    const reader = await census(READER);
    const admin = await census(ADMIN);
    expect(reader.count).toBe(admin.count);
    type Row = { id: number; blog_post: { id: number; label: string | null }; user: { id: number; label: string | null } };
    const mine = reader.result.json().records as Row[];
    const all = admin.result.json().records as Row[];
    const onPost5 = mine.find((r) => r.blog_post.id === 5)!;
    expect(onPost5.blog_post).toEqual({ id: 5, label: null });
    expect(all.find((r) => r.id === onPost5.id)!.blog_post).toEqual({ id: 5, label: 'Post 05: Gardens' });
    expect(reader.result.body).not.toContain('Post 05: Gardens');
    // Users outside her scope (only herself) answer no name; her own does.
    for (const row of mine) expect(row.user.label).toBe(row.user.id === 2 ? 'Rita Reader' : null);
    expect((await inject('GET', `/comments/${onPost5.id}`, READER)).json().record.blog_post).toEqual({ id: 5, label: null });
  });

  it('"has_many counts count what the actor can read": a tag\'s blog_posts count covers the posts in the reader\'s scope', async () => {
    const { rows } = await sql<{ tag_id: number; n: string }>`select j.tag_id, count(*) as n from blog_posts_tags j join blog_posts p on p.id = j.blog_post_id where p.published or p.author_id = 2 group by j.tag_id`.execute(demo().database.db);
    const visible = new Map(rows.map((row) => [Number(row.tag_id), Number(row.n)]));
    const tags = (await inject('GET', '/tags?per_page=100', READER)).json().records as { id: number; blog_posts: { count: number } }[];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag.blog_posts.count, `tag ${tag.id}`).toBe(visible.get(tag.id) ?? 0);
    const everything = (await inject('GET', '/tags?per_page=100', ADMIN)).json().records as { id: number; blog_posts: { count: number } }[];
    // Some tag is on a post she cannot read: the admin's count of it is larger.
    expect(everything.some((tag) => tag.blog_posts.count > (visible.get(tag.id) ?? 0))).toBe(true);
  });

  it('"users.password is confirm: true": on the panel-session path a password change needs a recent confirmation (403, as requireRecentConfirmation answers); an API key cannot write it at all', async () => {
    const signIn = await demo().app.inject({ method: 'POST', url: '/panel/login', payload: 'email=rita%40example.com&password=demo-password', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const cookie = `panel_session=${signIn.cookies.find((c) => c.name === 'panel_session')!.value}`;
    const page = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)![1]!;
    const before = (await userRow(2)).password_digest;
    // Signing in confirms the password; six minutes later (the window is five) it is no longer recent.
    clock.now += 6 * 60 * 1000;
    const session = { cookie, 'x-csrf-token': csrf };
    const refused = await inject('PATCH', '/users/2', session, { user: { password: 'stolen-session-pw' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Password confirmation required', confirm_path: '/panel/confirm' });
    expect((await userRow(2)).password_digest).toBe(before);
    // A write that does not touch the sensitive field needs no confirmation.
    expect((await inject('PATCH', '/users/2', session, { user: { name: 'Rita Reader' } })).statusCode).toBe(200);
    // The same change with the reader's API key (a credential path) is not asked to confirm: it is ignored, as a readonly field (issue 42, M1).
    expect((await inject('PATCH', '/users/2', READER, { user: { password: 'stolen-key-pw' } })).statusCode).toBe(200);
    expect((await userRow(2)).password_digest).toBe(before);
  });
}, { session: { now: () => clock.now } });

describeOnEachDatabase(
  'field rules per actor (unpermittedAttributes: reject)',
  (demo) => {
    const inject = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
      demo().app.inject({ method, url: `${V1}${url}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

    it('"turns every unknown or unpermitted key alike into a 422 naming them": the reader\'s admin, email and an unknown key get the same message, and nothing is written', async () => {
      const response = await inject('PATCH', '/users/2', READER, { user: { admin: true, email: 'x@example.com', no_such_field: 1, name: 'Changed?' } });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        errors: { admin: ['is not a permitted attribute'], email: ['is not a permitted attribute'], no_such_field: ['is not a permitted attribute'] },
        message: 'Failed to update User',
      });
      const row = await demo().database.db.selectFrom('users').select(['admin', 'email', 'name']).where('id', '=', 2).executeTakeFirstOrThrow();
      expect(row).toEqual({ admin: false, email: 'rita@example.com', name: 'Rita Reader' });
    });

    it('"no oracle" in reject mode: a forbidden key and an unknown key are named with the same message', async () => {
      const forbidden = await inject('POST', '/blog_posts', READER, { blog_post: { title: 'x', author_id: 3 } });
      const unknown = await inject('POST', '/blog_posts', READER, { blog_post: { title: 'x', writer_id: 3 } });
      expect(forbidden.statusCode).toBe(422);
      expect(forbidden.json().errors).toEqual({ author_id: ['is not a permitted attribute'] });
      expect(unknown.json().errors).toEqual({ writer_id: ['is not a permitted attribute'] });
    });

    it('the policy still answers first: a refused actor gets 302, never the 422 that names keys', async () => {
      expect((await inject('POST', '/tags', READER, { tag: { name: 'n', secret: 1 } })).statusCode).toBe(302);
    });

    it('an admin writes admin and email in reject mode, and a body of permitted keys passes', async () => {
      const response = await inject('PATCH', '/users/3', ADMIN, { user: { admin: false, email: 'carl@example.com' } });
      expect(response.statusCode).toBe(200);
      // A password is not writable with an API key (issue 42, M1): a body of permitted keys has none.
      expect((await inject('PATCH', '/users/2', READER, { user: { name: 'Rita Reader' } })).statusCode).toBe(200);
    });
  },
  { api: { unpermittedAttributes: 'reject' } },
);

describeOnEachDatabase(
  'field rules per actor in Edition B ("Edition B tokens get the same rules")',
  (demo) => {
    const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
    const inject = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
      demo().app.inject({ method, url: `${V1}${url}`, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

    it('a token (whose actor is no panel user) cannot write users.admin or users.email: ignored like unknown keys, even with every grant', async () => {
      const forbidden = await inject('PATCH', '/users/2', bearer('all'), { user: { admin: true, email: 'token@example.com' } });
      const unknown = await inject('PATCH', '/users/2', bearer('all'), { user: { no_such_field: true } });
      expect(forbidden.statusCode).toBe(200);
      expect(forbidden.body).toBe(unknown.body);
      expect(forbidden.json().record).toMatchObject({ admin: false, email: 'rita@example.com' });
    });

    it('a token does not read users.created_at (visible to admins) or blog_posts.view_count (admins and the author) on show, index or traversal, nor sorts by them', async () => {
      expect((await inject('GET', '/users/2', bearer('all'))).json().record).not.toHaveProperty('created_at');
      expect((await inject('GET', '/users?per_page=3', bearer('all'))).json().records.every((r: object) => !('created_at' in r))).toBe(true);
      // Traversal answers the target's records with the same rules: no view_count for a token actor.
      const related = (await inject('GET', '/users/2/blog_posts?per_page=5', bearer('all'))).json();
      expect(related.records.length).toBeGreaterThan(0);
      expect(related.records.some((r: object) => 'view_count' in r)).toBe(false);
      expect((await inject('GET', '/users/2/blog_posts?sort_by=view_count', bearer('all'))).statusCode).toBe(400);
      expect((await inject('GET', '/users?sort_by=created_at', bearer('all'))).statusCode).toBe(400);
    });

    it('the code-hook path keeps the rules too: Rita\'s key cannot write admin (the permission gate refuses code-hook writes first)', async () => {
      expect((await inject('PATCH', '/users/2', READER, { user: { admin: true } })).statusCode).toBe(403);
      const row = await demo().database.db.selectFrom('users').select('admin').where('id', '=', 2).executeTakeFirstOrThrow();
      expect(row.admin).toBe(false);
    });
  },
  { edition: 'B' },
);
