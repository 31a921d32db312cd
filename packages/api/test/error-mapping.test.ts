import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileNotFoundError, newBlobKey, NotAuthorizedError, RecordInvalidError, RecordNotFoundError, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AuthenticationError, BadRequestError, ControllerError, ERROR_STATUS, errorReply, InvalidAuthenticityTokenError, mountPanelAttachments } from '../src/index.js';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

describe('errorReply: one registry of codes and answers', () => {
  it('answers each registered code with its status, whatever the class (the code decides, not instanceof)', () => {
    const errors = [new AuthenticationError('nope'), new BadRequestError('bad'), new InvalidAuthenticityTokenError(), new RecordNotFoundError('Book', 1), new RecordInvalidError({ title: ['is bad'] }), new FileNotFoundError('k'), new NotAuthorizedError('update', 'Book')];
    for (const error of errors) expect(errorReply(error).status, error.code).toBe(ERROR_STATUS[error.code]);
    // A plain object with the code (as a second copy of the package would throw) answers the same.
    expect(errorReply({ code: 'PANEL_ERR_RECORD_NOT_FOUND', message: 'x' })).toEqual({ status: 404, body: { error: 'Not Found' } });
    expect(errorReply(new ControllerError('boot'))).toEqual({ status: 500, body: { error: 'Internal Server Error' } });
  });

  it('a deadlock (40P01) or a serialization failure (40001) answers as a lock wait cut by statement_timeout does: 503 JSON with Retry-After, never a 500', () => {
    for (const code of ['40P01', '40001']) {
      const driver = Object.assign(new Error('deadlock detected'), { code });
      expect(errorReply(driver), code).toEqual({ status: 503, body: { error: 'Service Unavailable' }, headers: { 'retry-after': '5' } });
    }
  });

  it('redirects a refused policy check to the root path it is given (the panel\'s rootPath)', () => {
    expect(errorReply(new NotAuthorizedError('destroy', 'Book'), { rootPath: '/admin' })).toMatchObject({ status: 302, location: '/admin', body: undefined });
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`the API and the attachment URL answer errors through the same mapping, under the configured rootPath [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      await runPanelMigrations(database);
    });
    afterAll(async () => database?.close());

    it('a refused policy check redirects to rootPath with the flash cookie on its path; a missing attachment is the registry\'s 404', async () => {
      // The hooks controllers do not rescue the refusal, so the default mapping answers it.
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, rootPath: '/admin' }, { controllersDir: 'app/controllers/panel/api/hooks' });
      const refused = await app.inject({ method: 'DELETE', url: '/api/resources/v1/books/1', headers: { 'x-user-id': '1' } });
      expect(refused.statusCode).toBe(302);
      expect(refused.headers.location).toBe('/admin');
      expect(String(refused.headers['set-cookie'])).toMatch(/^panel_flash=You%20are%20not%20authorized[^;]*; Path=\/admin; HttpOnly; SameSite=Lax$/);
      await app.close();
    });

    it('mountPanelAttachments serves under rootPath and answers a missing file with the same 404 as the API', async () => {
      const { createPanel } = await import('@panel/core');
      const Fastify = (await import('fastify')).default;
      const panel = await createPanel({ database, resources: [], rootPath: '/admin' });
      const app = Fastify();
      await app.register(mountPanelAttachments, { panel });
      const missing = await app.inject({ url: `/admin/attachments/${newBlobKey()}/notes.txt` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(errorReply(new FileNotFoundError('k')).body);
      expect(missing.headers['cache-control']).toBeUndefined();
      expect((await app.inject({ url: `/panel/attachments/${newBlobKey()}/notes.txt` })).statusCode).toBe(404);
      await app.close();
    });
  });
}
