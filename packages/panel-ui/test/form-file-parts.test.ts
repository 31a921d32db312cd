// The screens' design, New / Edit: "A forged control for a field the actor may not write changes
// nothing", and Files: "a file chosen before a 422 is kept as a pending upload". A multipart
// form's file part for a field its user may not write is read past, never stored; a write the
// policy refuses by its values (known only once the parts are read) keeps none of the files it
// carried; a genuine 422 keeps them, pending, and so does "Confirm your password" (New / Edit:
// "a link to confirm, keeping what was typed").
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { BLOBS_TABLE, Policy, Resource, UPLOADS_TABLE, createPanel, diskStorage, field, policyAuthorization, runPanelMigrations, type Panel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { panelScreens } from '../src/index.js';
import { SESSION_SECRET } from './screens-app.js';

interface Member {
  readonly id: number;
  readonly admin: boolean;
}

/** Everyone signed in lists, reads, creates and updates documents; a document titled "Refused" is never created (a refusal by its values). */
class DocumentPolicy extends Policy<Member, { title?: unknown }> {
  override index() {
    return this.user !== null;
  }
  override show() {
    return this.user !== null;
  }
  override create() {
    return this.user !== null && this.record?.title !== 'Refused';
  }
  override update() {
    return this.user !== null;
  }
}

/** A document: anyone writes its title and scan; only admins write its seal; its classification needs a recent password confirmation. */
class DocumentResource extends Resource {
  static override policy = DocumentPolicy;
  fields() {
    return [
      field.id(),
      field.text('title', { required: true }),
      field.file('scan'),
      field.file('seal', { readonly: ({ user }) => (user as Member | null)?.admin !== true }),
      field.text('classification', { confirm: true }),
    ];
  }
}

/** A 1 × 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A multipart/form-data body of `parts` in order (a part with `filename` is a file). */
function multipart(parts: readonly { name: string; value: string | Buffer; filename?: string }[]): { payload: Buffer; contentType: string } {
  const boundary = '----panel-refused-file-parts';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.filename === undefined ? '' : 'Content-Type: image/png\r\n'}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

for (const kind of testDatabaseKinds()) {
  describe(`file parts the write does not take are not stored [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let app: FastifyInstance;
    let storageRoot: string;
    /** Rita, not an admin: her session cookie and CSRF token. */
    let rita: { cookie: string; csrf: string };

    beforeAll(async () => {
      storageRoot = await mkdtemp(join(tmpdir(), 'panel-ui-refused-parts-'));
      database = await openTestDatabase(kind);
      const { db } = database;
      await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
      await db.schema.createTable('documents').addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn('title', 'text').addColumn('classification', 'text').execute();
      await db.insertInto('users' as never).values({ id: 2, name: 'Rita', admin: false } as never).execute();
      await db.insertInto('documents' as never).values({ title: 'Lease' } as never).execute();
      await runPanelMigrations(database);
      panel = await createPanel({
        database,
        resources: [DocumentResource],
        sessionSecret: SESSION_SECRET,
        storage: diskStorage({ root: storageRoot }),
        plugins: [policyAuthorization()],
        authorizationClient: 'policies',
        license: { features: ['api', 'authorization'] },
      });
      app = Fastify();
      await app.register(fastifyCookie);
      await app.register(panelScreens, { panel, home: true });
      await app.ready();
      const session = await panel.sessions!.start(2);
      rita = { cookie: `${panel.config.sessionCookie}=${session}`, csrf: (panel.sessions!.open(session) as { csrfToken: string }).csrfToken };
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
      if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
    });

    /** What is stored: pending uploads, blobs, and files in the storage folder. */
    const stored = async () => {
      const count = async (table: string) => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const files = (await readdir(storageRoot, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
      return { uploads: await count(UPLOADS_TABLE), blobs: await count(BLOBS_TABLE), files };
    };
    const post = (url: string, parts: Parameters<typeof multipart>[0], cookie = rita.cookie) => {
      const body = multipart([{ name: 'csrf_token', value: rita.csrf }, ...parts]);
      return app.inject({ method: 'POST', url, headers: { cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload });
    };

    it('"A forged control for a field the actor may not write changes nothing": a forged file part for the seal (only admins write it) is read past, never stored, on update and on create', async () => {
      const before = await stored();
      const edit = await app.inject({ url: '/panel/resources/documents/1/edit', headers: { cookie: rita.cookie } });
      expect(edit.body).toContain('name="record[scan]"');
      expect(edit.body).not.toContain('name="record[seal]"');
      const updated = await post('/panel/resources/documents/1', [{ name: 'record[title]', value: 'Lease, signed' }, { name: 'record[seal]', value: PNG, filename: 'forged.png' }]);
      expect(updated.statusCode).toBe(303);
      expect(await stored()).toEqual(before);
      const created = await post('/panel/resources/documents', [{ name: 'record[title]', value: 'Deed' }, { name: 'record[seal]', value: PNG, filename: 'forged.png' }]);
      expect(created.statusCode).toBe(303);
      expect(await stored()).toEqual(before);
    });

    it('"on a POST nothing is written": a create the policy refuses by its values (known once the parts are read) keeps none of the files it carried', async () => {
      const before = await stored();
      const refused = await post('/panel/resources/documents', [{ name: 'record[title]', value: 'Refused' }, { name: 'record[scan]', value: PNG, filename: 'scan.png' }]);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('<nav class="sidebar"');
      expect(await stored()).toEqual(before);
    });

    it('"CSRF token … on every POST": a form whose token comes first and again, differently, after a file is the "form expired" page, and keeps none of its files', async () => {
      const before = await stored();
      const twice = await post('/panel/resources/documents/1', [{ name: 'record[scan]', value: PNG, filename: 'scan.png' }, { name: 'csrf_token', value: 'another token' }]);
      expect(twice.statusCode).toBe(403);
      expect(twice.body).toContain('The form expired');
      expect(await stored()).toEqual(before);
    });

    it('"a file chosen before a 422 is kept as a pending upload": a genuine 422 keeps the file it carried, pending, and the form shows it', async () => {
      const before = await stored();
      const invalid = await post('/panel/resources/documents', [{ name: 'record[title]', value: '' }, { name: 'record[scan]', value: PNG, filename: 'scan.png' }]);
      expect(invalid.statusCode).toBe(422);
      expect(invalid.body).toContain('scan.png will be attached when you save');
      expect(await stored()).toEqual({ uploads: before.uploads + 1, blobs: before.blobs + 1, files: before.files + 1 });
    });

    it('"a link to confirm, keeping what was typed": a file chosen before "Confirm your password" is kept as a pending upload, and shown on the form back from the confirmation', async () => {
      const sessions = panel.sessions!;
      const opened = sessions.read(rita.cookie.slice(rita.cookie.indexOf('=') + 1))!;
      const old = `${panel.config.sessionCookie}=${sessions.reseal(opened, { confirmedAt: opened.confirmedAt! - sessions.options.confirmWindow - 1 })}`;
      const form = await app.inject({ url: '/panel/resources/documents/1/edit', headers: { cookie: old } });
      expect(form.body).not.toContain('name="record[classification]"');
      expect(form.body).toContain('name="then" value="confirm"');
      const before = await stored();
      const kept = await post('/panel/resources/documents/1', [{ name: 'record[title]', value: 'Lease, typed' }, { name: 'record[scan]', value: PNG, filename: 'kept.png' }, { name: 'then', value: 'confirm' }], old);
      expect(kept.statusCode).toBe(303);
      expect(await stored()).toEqual({ uploads: before.uploads + 1, blobs: before.blobs + 1, files: before.files + 1 });
      const back = new URL(kept.headers.location as string, 'http://localhost').searchParams.get('return_to')!;
      expect(back).toMatch(/^\/panel\/resources\/documents\/1\/edit\?draft=/);
      const restored = await app.inject({ url: back, headers: { cookie: old } });
      expect(restored.body).toContain('value="Lease, typed"');
      expect(restored.body).toContain('kept.png will be attached when you save');
    });
  });
}
