import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('the panel session and CSRF ("controllers use the null_session strategy by default")', (demo) => {
  const signIn = async (email = 'ada@example.com', password = 'demo-password') => {
    const response = await demo().app.inject({ method: 'POST', url: '/panel/login', payload: `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const cookie = response.cookies.find((c) => c.name === 'panel_session');
    return { response, cookie: cookie ? `panel_session=${cookie.value}` : undefined };
  };
  const csrfToken = async (cookie: string) => {
    const page = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
    return /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
  };
  const postCount = async () => (await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?per_page=1', headers: { authorization: 'ApiKey demo-admin-key' } })).json().pagination.total_count as number;

  it('signs in on the panel\'s login page with a sealed session cookie', async () => {
    const { response, cookie } = await signIn();
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/panel');
    expect(response.cookies.find((c) => c.name === 'panel_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie).not.toContain('userId');
    const page = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie: cookie! } });
    expect(page.body).toContain('Signed in as Ada Admin');
    expect((await signIn('ada@example.com', 'wrong')).response.statusCode).toBe(401);
  });

  it('authenticates API reads with the session cookie', async () => {
    const { cookie } = await signIn('rita@example.com');
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie: cookie! } });
    expect(response.statusCode).toBe(200);
    expect(response.json().records.map((u: { id: number }) => u.id)).toEqual([2]);
  });

  it('"A request without a valid CSRF token gets an empty session for the request and no exception is raised": a cross-site write is 401 and writes nothing', async () => {
    const { cookie } = await signIn();
    const before = await postCount();
    for (const headers of [{ cookie: cookie! }, { cookie: cookie!, 'x-csrf-token': 'forged' }]) {
      const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts', headers, payload: { blog_post: { title: 'Cross-site' } } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    }
    expect(await postCount()).toBe(before);
  });

  it('lets a write with the session\'s CSRF token through', async () => {
    const { cookie } = await signIn();
    const token = await csrfToken(cookie!);
    expect(token).toBeTruthy();
    const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts', headers: { cookie: cookie!, 'x-csrf-token': token! }, payload: { blog_post: { title: 'Same-site' } } });
    expect(response.statusCode).toBe(201);
  });

  it('ignores a session cookie that was altered', async () => {
    const { cookie } = await signIn();
    const tampered = cookie!.slice(0, -4) + (cookie!.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { cookie: tampered } });
    expect(response.statusCode).toBe(401);
  });

  it('shows the flash message of a refused policy check on the panel root page, once', async () => {
    const refused = await demo().app.inject({ method: 'DELETE', url: '/api/resources/v1/blog_posts/1', headers: { authorization: 'ApiKey demo-reader-key' } });
    const flash = refused.cookies.find((c) => c.name === 'panel_flash')!;
    const page = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie: `panel_flash=${encodeURIComponent(flash.value)}` } });
    expect(page.body).toContain('You are not authorized to perform this action.');
    expect(page.cookies.find((c) => c.name === 'panel_flash')?.value).toBe('');
  });
});
