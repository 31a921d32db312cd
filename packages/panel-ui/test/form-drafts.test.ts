import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_TIME_REVEALS_TABLE, Resource, createPanel, field, runPanelMigrations, type CompiledResource, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { FormDrafts } from '../src/resources/form-drafts.js';

/** An account: a name, a password, and a `confirm: true` recovery email. */
class AccountResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.password('password'), field.text('recovery_email', { confirm: true })];
  }
}

const FORM = '/panel/resources/accounts/1/edit';
const SESSION = 'csrf-token-of-one-session';

for (const kind of testDatabaseKinds()) {
  describe(`FormDrafts: what was typed, kept while the user confirms their password [${kind}]`, () => {
    let database: PanelDatabase;
    let drafts: FormDrafts;
    let resource: CompiledResource;
    const clock = { offset: 0 };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runPanelMigrations(database);
      await database.db.schema.createTable('accounts').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').addColumn('password_digest', 'text').addColumn('recovery_email', 'text').execute();
      const panel = await createPanel({ database, resources: [AccountResource], sessionSecret: 'a-form-drafts-test-secret-of-32-chars-or-more', session: { now: () => Date.now() + clock.offset } });
      drafts = new FormDrafts(panel);
      resource = panel.resources.get('Account')!;
    });
    afterAll(async () => {
      await database?.close();
    });

    const typed = new Map([
      ['record[name]', ['Ada King']],
      ['record[password]', ['a new password']],
      ['record[recovery_email]', ['ada@example.org']],
    ]);

    it('keeps the values sealed in the database, the sensitive fields (passwords, confirm: true) never, and gives them back once', async () => {
      const handle = await drafts.hold({ resource, form: FORM, typed, sessionKey: SESSION });
      expect(handle).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const rows = await database.db.selectFrom(ONE_TIME_REVEALS_TABLE).selectAll().execute();
      expect(JSON.stringify(rows)).not.toMatch(/Ada King|a new password|ada@example\.org/);
      expect(await drafts.take({ handle, form: FORM, sessionKey: SESSION })).toEqual(new Map([['record[name]', ['Ada King']]]));
      expect(await drafts.take({ handle, form: FORM, sessionKey: SESSION })).toBeUndefined();
    });

    it('gives nothing to another session, on another form, for a malformed handle, or after 30 minutes', async () => {
      const other = await drafts.hold({ resource, form: FORM, typed, sessionKey: SESSION });
      expect(await drafts.take({ handle: other, form: FORM, sessionKey: 'another session' })).toBeUndefined();
      const misplaced = await drafts.hold({ resource, form: FORM, typed, sessionKey: SESSION });
      expect(await drafts.take({ handle: misplaced, form: '/panel/resources/accounts/2/edit', sessionKey: SESSION })).toBeUndefined();
      for (const handle of [undefined, '', ['x'], '../../etc', 'a'.repeat(25)]) expect(await drafts.take({ handle, form: FORM, sessionKey: SESSION })).toBeUndefined();
      const old = await drafts.hold({ resource, form: FORM, typed, sessionKey: SESSION });
      clock.offset = 30 * 60 * 1000 + 1;
      try {
        expect(await drafts.take({ handle: old, form: FORM, sessionKey: SESSION })).toBeUndefined();
      } finally {
        clock.offset = 0;
      }
      expect(await drafts.take({ handle: other, form: FORM, sessionKey: SESSION }), 'the other session\'s look left it in place').toEqual(new Map([['record[name]', ['Ada King']]]));
    });
  });
}
