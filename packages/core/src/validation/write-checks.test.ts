// WriteChecks' `built` memo (a batch's repeated checks built once): a check whose build the
// actor's scope narrowed stays marked narrowed wherever it is reused, so that a write made of
// reused checks is never taken for one whose statement depends on its shape alone.
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Resource, compileResources, field, type ReadableRecords } from '../index.js';
import { WriteChecks, type BuiltCheck } from './write-checks.js';

class AuthorResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}
class EditorResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}
class BookResource extends Resource {
  fields() {
    return [field.id(), field.belongsTo('author'), field.belongsTo('editor')];
  }
}

const registry = compileResources([AuthorResource, EditorResource, BookResource]);
const book = registry.get('Book')!;
// The actor reads some authors and some editors only: both checks are narrowed.
const readable: ReadableRecords = () => (query) => query.where('r.id', '<', 100);
const noTransaction = (): Transaction<any> => {
  throw new Error('no check of these types runs in a transaction');
};
const collect = (changes: Record<string, unknown>, built: Map<string, BuiltCheck>) => WriteChecks.collect({ resource: book, registry, changes, existing: undefined, readable, transaction: noTransaction, built });

describe('WriteChecks, the checks a batch built once', () => {
  it('a narrowed check reused by another write keeps that write narrowed, even when it was built after another narrowed check', async () => {
    const built = new Map<string, BuiltCheck>();
    const first = await collect({ author_id: 1, editor_id: 2 }, built);
    expect(first.shapeOnly).toBe(false);
    expect([...built.values()].map((check) => check.narrowed)).toEqual([true, true]);
    // Another author, the same editor: the editor's check is reused from the first write.
    const second = await collect({ author_id: 3, editor_id: 2 }, built);
    expect(second.statement).toHaveLength(2);
    expect(second.shapeOnly).toBe(false);
  });

  it('an unnarrowed check stays unnarrowed', async () => {
    const built = new Map<string, BuiltCheck>();
    const everyRecord: ReadableRecords = () => (query) => query;
    await WriteChecks.collect({ resource: book, registry, changes: { author_id: 1 }, existing: undefined, readable: everyRecord, transaction: noTransaction, built });
    expect([...built.values()].map((check) => check.narrowed)).toEqual([false]);
  });
});
