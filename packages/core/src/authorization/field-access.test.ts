import { describe, expect, it } from 'vitest';
import { field } from '../fields/field-builders.js';
import { Resource } from '../resources/resource.js';
import { compileResources } from '../resources/compiled-resource.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import { policyAuthorization } from './policy-authorization.js';
import { Policy } from './policy.js';
import { fieldAccess } from './field-access.js';

interface Actor {
  readonly id: number;
  readonly admin: boolean;
}
const admin: Actor = { id: 1, admin: true };
const reader: Actor = { id: 2, admin: false };
const calls = { byUser: 0, byRecord: 0 };

class NotePolicy extends Policy<Actor, { owner_id: number }> {
  override permittedAttributes(action: 'create' | 'update') {
    if (this.user?.admin) return undefined;
    return action === 'create' ? ['title', 'owner', 'secret'] : ['title'];
  }
}

class Note extends Resource {
  static override policy = NotePolicy;
  override fields() {
    return [
      field.id(),
      field.text('title'),
      field.text('secret', {
        visible: ({ user }) => {
          calls.byUser += 1;
          return user?.admin === true;
        },
      }),
      field.text('mine', {
        visible: ({ user, record }) => {
          calls.byRecord += 1;
          return user?.admin === true || record?.owner_id === user?.id;
        },
      }),
      field.text('stamp', { readonly: true }),
      field.text('flag', { readonly: ({ user }) => user?.admin !== true }),
      field.text('truthy', { visible: (() => 1) as never }),
      field.belongsTo('owner', { resource: 'Note' }),
    ];
  }
}

const note = compileResources([Note]).get('Note')!;
const authorization = policyAuthorization().client;
const names = (fields: readonly { name: string }[]) => fields.map((f) => f.name);

describe('fieldAccess: the one decision of which fields an actor reads and writes', () => {
  it('"compiled once per request": a rule that does not read the record runs once per view, whatever the number of records', () => {
    calls.byUser = 0;
    const access = fieldAccess({ resource: note, user: reader });
    for (let i = 0; i < 50; i += 1) {
      for (const f of access.readable('index')) access.shows(f, 'index', { id: i, owner_id: 9 });
    }
    expect(calls.byUser).toBe(1);
    expect(names(access.readable('index'))).not.toContain('secret');
    expect(names(fieldAccess({ resource: note, user: admin }).readable('index'))).toContain('secret');
  });

  it('a rule that reads the record runs per record (and an admin\'s, which answers before reading it, once)', () => {
    calls.byRecord = 0;
    const access = fieldAccess({ resource: note, user: reader });
    const mine = access.readable('show').find((f) => f.name === 'mine')!;
    expect(access.shows(mine, 'show', { owner_id: 2 })).toBe(true);
    expect(access.shows(mine, 'show', { owner_id: 3 })).toBe(false);
    expect(calls.byRecord).toBe(3);
    expect(names(access.queryable('show'))).not.toContain('mine');
    calls.byRecord = 0;
    const forAdmin = fieldAccess({ resource: note, user: admin });
    for (let i = 0; i < 10; i += 1) forAdmin.shows(mine, 'show', { owner_id: i });
    expect(calls.byRecord).toBe(1);
    expect(names(forAdmin.queryable('show'))).toContain('mine');
  });

  it('only `true` from a rule shows a field (a truthy 1 does not)', () => {
    expect(names(fieldAccess({ resource: note, user: admin }).readable('index'))).not.toContain('truthy');
  });

  it('writable: visible, not readonly, and named by permittedAttributes (by field name or write key), per action', async () => {
    expect(names(await fieldAccess({ resource: note, user: admin, authorization }).writable('update', { owner_id: 1 }))).toEqual(['title', 'secret', 'mine', 'flag', 'owner']);
    expect(names(await fieldAccess({ resource: note, user: reader, authorization }).writable('create', null))).toEqual(['title', 'owner']);
    expect(names(await fieldAccess({ resource: note, user: reader, authorization }).writable('update', { owner_id: 2 }))).toEqual(['title']);
    // Without the policy library, the field rules alone.
    expect(names(await fieldAccess({ resource: note, user: reader }).writable('update', { owner_id: 2 }))).toEqual(['title', 'mine', 'owner']);
    expect(names(await fieldAccess({ resource: note, user: reader }).writable('update', { owner_id: 3 }))).toEqual(['title', 'owner']);
  });

  it('writableOnSome (one actor\'s OpenAPI document): a rule that reads the record counts as allowing; one that does not is exact', async () => {
    // The reader writes `mine` on her own notes only: without a record, the document keeps it; `secret` and `flag` never.
    expect(names(await fieldAccess({ resource: note, user: reader }).writableOnSome('update'))).toEqual(['title', 'mine', 'owner']);
    // NotePolicy's permittedAttributes answers without reading the record: it narrows as on a request.
    expect(names(await fieldAccess({ resource: note, user: reader, authorization }).writableOnSome('update'))).toEqual(['title']);
    expect(names(await fieldAccess({ resource: note, user: admin, authorization }).writableOnSome('update'))).toEqual(['title', 'secret', 'mine', 'flag', 'owner']);
    // On create, exactly `writable('create', null)`.
    expect(names(await fieldAccess({ resource: note, user: reader, authorization }).writableOnSome('create'))).toEqual(['title', 'owner']);
    // A policy that reads the record, even after an await, does not narrow: only a record can answer it.
    const byOwner = { ...authorization, permittedAttributes: async ({ record }: { record: unknown }) => {
      await Promise.resolve();
      return (record as { owner_id?: number }).owner_id === 2 ? ['title'] : [];
    } };
    expect(names(await fieldAccess({ resource: note, user: reader, authorization: byOwner }).writableOnSome('update'))).toEqual(['title', 'mine', 'owner']);
  });

  it('on create there is no record to judge: one request asks the policy once, however many creates (a batch); an update asks per record', async () => {
    const asked: string[] = [];
    const counting = { ...authorization, permittedAttributes: async ({ action }: { action: string }) => {
      asked.push(action);
      return ['title', 'owner'];
    } };
    const access = fieldAccess({ resource: note, user: reader, authorization: counting });
    const answers = await Promise.all([access.writable('create', null), access.writable('create', null), access.writable('create', null)]);
    expect(answers.map(names)).toEqual([['title', 'owner'], ['title', 'owner'], ['title', 'owner']]);
    await access.writable('update', { owner_id: 2 });
    await access.writable('update', { owner_id: 2 });
    expect(asked).toEqual(['create', 'update', 'update']);
  });

  it('omit leaves a field out of reads (Edition B: an association without a read grant)', () => {
    expect(names(fieldAccess({ resource: note, user: admin, omit: (f) => f.name === 'owner' }).readable('index'))).not.toContain('owner');
  });

  it('a rule of the wrong kind fails at boot, naming the option and the fix', () => {
    class Bad extends Resource {
      override fields() {
        return [field.text('x', { default: 5 as never })];
      }
    }
    expect(() => compileResources([Bad])).toThrow(PanelConfigError);
    expect(() => compileResources([Bad])).toThrow(/default must be a function .* Fix: default: \(\) => 5/);
  });
});
