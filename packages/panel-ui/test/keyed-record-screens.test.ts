// Issue 46, item 0: "every path honours the column and its type", the screens too. A belongs_to
// whose target the user may not list is asked for as an id: the input says which form the id
// takes and opens a numeric keyboard only for a number key; the filter on it does the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { Policy, Resource, createPanel, field, policyAuthorization, runPanelMigrations, type Panel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { panelScreens } from '../src/index.js';
import { SESSION_SECRET } from './screens-app.js';

/** Nobody lists or reads labels and tracks: their ids are typed, not chosen. */
class UnlistedPolicy extends Policy {
  override index() {
    return false;
  }
  override show() {
    return false;
  }
}

/** Reviews are open to every signed-in user. */
class ReviewPolicy extends Policy {
  override index() {
    return this.user !== null;
  }
  override show() {
    return this.user !== null;
  }
  override create() {
    return this.user !== null;
  }
}

class LabelResource extends Resource {
  static override primaryKeyType = 'uuid' as const;
  static override policy = UnlistedPolicy;
  fields() {
    return [field.id(), field.text('name')];
  }
}

class TrackResource extends Resource {
  static override primaryKey = 'track_code';
  static override primaryKeyType = 'text' as const;
  static override policy = UnlistedPolicy;
  fields() {
    return [field.text('track_code', { required: true }), field.text('name')];
  }
}

class ReviewResource extends Resource {
  static override policy = ReviewPolicy;
  fields() {
    return [field.id(), field.text('body'), field.belongsTo('label'), field.belongsTo('track'), field.belongsTo('review_group')];
  }
}

/** A number-keyed target nobody lists either: its id keeps the numeric keyboard. */
class ReviewGroupResource extends Resource {
  static override policy = UnlistedPolicy;
  fields() {
    return [field.id(), field.text('name')];
  }
}

/** The `<input>` a page draws for `name`, whole. */
const inputNamed = (html: string, name: string) => new RegExp(`<input [^>]*name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*>`).exec(html)?.[0];

for (const kind of testDatabaseKinds()) {
  describe(`the screens ask for an id of the target's key type [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let app: FastifyInstance;
    let cookie: string;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      const { db } = database;
      await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').addColumn('email', 'text').execute();
      await db.schema.createTable('labels').addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(db.fn('gen_random_uuid'))).addColumn('name', 'text').execute();
      await db.schema.createTable('tracks').addColumn('track_code', 'text', (c) => c.primaryKey()).addColumn('name', 'text').execute();
      await db.schema.createTable('review_groups').addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn('name', 'text').execute();
      await db.schema
        .createTable('reviews')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('body', 'text')
        .addColumn('label_id', 'uuid', (c) => c.references('labels.id'))
        .addColumn('track_id', 'text', (c) => c.references('tracks.track_code'))
        .addColumn('review_group_id', 'integer', (c) => c.references('review_groups.id'))
        .execute();
      await db.insertInto('users' as never).values({ id: 1, name: 'Rita', email: 'rita@example.com' } as never).execute();
      await runPanelMigrations(database);
      panel = await createPanel({
        database,
        resources: [LabelResource, TrackResource, ReviewGroupResource, ReviewResource],
        sessionSecret: SESSION_SECRET,
        plugins: [policyAuthorization()],
        authorizationClient: 'policies',
        license: { features: ['api', 'authorization'] },
      });
      app = Fastify();
      await app.register(fastifyCookie);
      await app.register(panelScreens, { panel, home: true });
      await app.ready();
      cookie = `${panel.config.sessionCookie}=${await panel.sessions!.start(1)}`;
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('the new-record form: a uuid and a text key get no numeric keyboard and a hint naming their form; an integer key keeps both', async () => {
      const page = await app.inject({ url: '/panel/resources/reviews/new', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      const label = inputNamed(page.body, 'record[label_id]');
      expect(label).toBeDefined();
      expect(label).not.toContain('inputmode');
      expect(page.body).toContain('The id of the record: a UUID.');
      const track = inputNamed(page.body, 'record[track_id]');
      expect(track).toBeDefined();
      expect(track).not.toContain('inputmode');
      expect(page.body).toContain('The id of the record: a non-empty text of at most 1000 characters.');
      expect(inputNamed(page.body, 'record[review_group_id]')).toContain('inputmode="numeric"');
      expect(page.body).toContain('The id of the record: a positive integer.');
    });

    it('the list\'s filters: the same keyboards for the same keys', async () => {
      const page = await app.inject({ url: '/panel/resources/reviews', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(inputNamed(page.body, 'filter[label_id][eq]')).not.toContain('inputmode');
      expect(inputNamed(page.body, 'filter[track_id][eq]')).not.toContain('inputmode');
      expect(inputNamed(page.body, 'filter[review_group_id][eq]')).toContain('inputmode="numeric"');
    });
  });
}
