import { expect, it } from 'vitest';
import { isPanelError, operations, type ErrorMessages } from '@panel/core';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

// The users the demo's keys stand for, as its base controller's currentUser() returns them.
const ada = { id: 1, name: 'Ada Admin', admin: true };
const rita = { id: 2, name: 'Rita Reader', admin: false };

/** The error an operation throws, for `expect`. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; errors?: ErrorMessages }> {
  try {
    await work;
  } catch (error) {
    if (isPanelError(error)) return error as unknown as { code: string; errors?: ErrorMessages };
    throw error;
  }
  throw new Error('the operation did not refuse');
}

describeOnEachDatabase('operations run without HTTP ("A script or a job can call an operation with a user and get the same rules as the API")', (demo) => {
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    demo().app.inject({ method, url: `/api/resources/v1${url}`, headers, ...(payload === undefined ? {} : { payload }) });

  it('list: a reader sees through the policy scope exactly the posts the API shows her', async () => {
    const { panel } = demo();
    const page = await operations.list({ panel, resource: 'BlogPost', actor: rita, page: 1, perPage: 100, sort: { column: 'id', direction: 'asc' } });
    const viaApi = (await api('GET', '/blog_posts?per_page=100&sort_by=id&sort_direction=asc', READER)).json();
    expect(page.rows.map((row) => row.id)).toEqual(viaApi.records.map((record: { id: number }) => record.id));
    expect(page.totalCount).toBe(viaApi.pagination.total_count);
    expect(page.totalCount).toBeLessThan((await operations.list({ panel, resource: 'BlogPost', actor: ada, perPage: 1 })).totalCount);
  });

  it('show: a record outside the scope is not found, as the API answers 404', async () => {
    const { panel } = demo();
    expect((await refusal(operations.show({ panel, resource: 'BlogPost', actor: rita, id: 5 }))).code).toBe('PANEL_ERR_RECORD_NOT_FOUND');
    expect((await api('GET', '/blog_posts/5', READER)).statusCode).toBe(404);
    expect((await operations.show({ panel, resource: 'BlogPost', actor: ada, id: 5 })).title).toBe('Post 05: Gardens');
  });

  it('create: the policy refuses a reader (the API redirects with 302); an admin gets the validation messages the API answers with 422', async () => {
    const { panel } = demo();
    expect((await refusal(operations.create({ panel, resource: 'Product', actor: rita, attributes: { name: 'Tin' } }))).code).toBe('PANEL_ERR_NOT_AUTHORIZED');
    expect((await api('POST', '/products', READER, { product: { name: 'Tin' } })).statusCode).toBe(302);

    const invalid = await refusal(operations.create({ panel, resource: 'Product', actor: ada, attributes: { name: '', status: 'gone' } }));
    const viaApi = (await api('POST', '/products', ADMIN, { product: { name: '', status: 'gone' } })).json();
    expect(invalid).toMatchObject({ code: 'PANEL_ERR_RECORD_INVALID', errors: viaApi.errors });

    const row = await operations.create({ panel, resource: 'Product', actor: ada, attributes: { name: 'Tin', tags: ['metal'] } });
    expect(row).toMatchObject({ name: 'Tin', status: 'draft', tags: ['metal'] });
  });

  it('update: the author may change her own draft, another user may not, and a bad value refuses the write in its transaction', async () => {
    const { panel, database } = demo();
    // Post 10 is an unpublished post of user 2 (Rita): in her scope, and hers to update.
    const updated = await operations.update({ panel, resource: 'BlogPost', actor: rita, id: 10, attributes: { title: 'Rita edits' } });
    expect(updated.title).toBe('Rita edits');
    expect((await refusal(operations.update({ panel, resource: 'BlogPost', actor: rita, id: 2, attributes: { title: 'Not hers' } }))).code).toBe('PANEL_ERR_NOT_AUTHORIZED');
    expect((await refusal(operations.update({ panel, resource: 'BlogPost', actor: rita, id: 10, attributes: { view_count: -1 } }))).errors).toEqual({ view_count: ['must be greater than or equal to 0'] });
    const stored = await database.db.selectFrom('blog_posts').select(['title', 'view_count']).where('id', 'in', [2, 10]).orderBy('id').execute();
    expect(stored.map((row) => row.title)).toEqual(['Post 02: Kitchens', 'Rita edits']);
  });

  it('destroy: the resource\'s beforeDestroy refuses with its base message, as the API\'s 422 does; without a user the policy refuses', async () => {
    const { panel } = demo();
    expect(await refusal(operations.destroy({ panel, resource: 'User', actor: ada, id: 1 }))).toMatchObject({ code: 'PANEL_ERR_RECORD_INVALID', errors: { base: ['Cannot delete an admin user'] } });
    expect((await api('DELETE', '/users/1', ADMIN)).json().errors).toEqual({ base: ['Cannot delete an admin user'] });
    expect((await refusal(operations.destroy({ panel, resource: 'Comment', id: 1 }))).code).toBe('PANEL_ERR_NOT_AUTHORIZED');
    await operations.destroy({ panel, resource: 'Comment', actor: ada, id: 1 });
    expect((await refusal(operations.show({ panel, resource: 'Comment', actor: ada, id: 1 }))).code).toBe('PANEL_ERR_RECORD_NOT_FOUND');
  });
});
