import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, policyAuthorization, runPanelMigrations, type CreatePanelOptions, type PanelDatabase } from '@panel/core';
import { mountPanelApi, type MountPanelApiOptions } from '../src/index.js';

/** The fixture app's root (its app/panel/resources and app/controllers). */
export const LIBRARY_ROOT = fileURLToPath(new URL('./fixtures/library/', import.meta.url));

/** Runs the framework's migrations (the session tables) and creates the fixture tables and rows: authors 1–3; books 1–4 owned by users 1 and 2. */
export async function prepareLibrary(database: PanelDatabase): Promise<void> {
  await runPanelMigrations(database);
  const { db } = database;
  await db.schema.createTable('authors').addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn('name', 'text', (c) => c.notNull()).execute();
  await db.schema
    .createTable('books')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer')
    .addColumn('author_id', 'integer', (c) => c.references('authors.id'))
    .execute();
  await db.insertInto('authors').values([{ name: 'Le Guin' }, { name: 'Calvino' }, { name: 'Borges' }]).execute();
  await db
    .insertInto('books')
    .values([
      { title: 'The Dispossessed', owner_id: 1, author_id: 1 },
      { title: 'Invisible Cities', owner_id: 1, author_id: 2 },
      { title: 'Ficciones', owner_id: 2, author_id: 3 },
      { title: 'The Lathe of Heaven', owner_id: 2, author_id: 1 },
    ])
    .execute();
}

/** The panel options that put the policies in force (all four conditions hold). */
export const AUTHORIZED: Partial<CreatePanelOptions> = {
  plugins: [policyAuthorization()],
  authorizationClient: 'policies',
  license: { features: ['api', 'authorization'] },
};

/** Builds a Fastify app serving the fixture panel; `logs` collects what Fastify logged (at `logLevel` and above). */
export async function buildLibraryApp(
  database: PanelDatabase,
  panelOptions: Partial<CreatePanelOptions> = AUTHORIZED,
  mountOptions: Partial<Omit<MountPanelApiOptions, 'panel'>> = {},
  logLevel: 'error' | 'warn' = 'error',
): Promise<{ app: FastifyInstance; logs: string[] }> {
  const logs: string[] = [];
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      logs.push(String(chunk));
      done();
    },
  });
  const panel = await createPanel({ database, appRoot: LIBRARY_ROOT, ...panelOptions });
  const app = Fastify({ logger: { level: logLevel, stream } });
  await app.register(mountPanelApi, { panel, ...mountOptions });
  await app.ready();
  return { app, logs };
}
