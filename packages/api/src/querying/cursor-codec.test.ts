import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keysetValueDigest } from '@panel/core';
import { CursorCodec, cursorBinding, cursorKeys } from './cursor-codec.js';

const binding = (overrides: Partial<Parameters<typeof cursorBinding>[0]> = {}) =>
  cursorBinding({ list: 'blog_posts', values: new Map([['filter[published]', ['true']]]), order: { column: 'published_on', direction: 'desc' }, actor: 'user:2', ...overrides });

describe('CursorCodec: "signed (HMAC, key rotation possible), ≤ 1 KiB, and bound to the resource, the filters, q, the sort and the actor"', () => {
  const codec = new CursorCodec([randomBytes(32)]);
  const position = { value: '2026-03-01 10:00:00.000001+00', id: '42' };

  it('opens what it signed: the side and the exact place', () => {
    expect(codec.open(codec.sign('after', position, binding()), binding())).toEqual({ side: 'after', position });
    expect(codec.open(codec.sign('before', { value: null, id: '7' }, binding()), binding())).toEqual({ side: 'before', position: { value: null, id: '7' } });
  });

  it('is at most 1 KiB for a sort value of 600 characters', () => {
    expect(codec.sign('after', { value: 'x'.repeat(600), id: '9223372036854775807' }, binding()).length).toBeLessThanOrEqual(1024);
  });

  it('stays within 1 KiB for a sort value of any length: a value longer than it carries becomes its digest, which opens as such', () => {
    for (const value of ['x'.repeat(601), '"'.repeat(400), 'é'.repeat(10_000), '\u0000'.repeat(2_000)]) {
      const cursor = codec.sign('after', { value, id: '9223372036854775807' }, binding());
      expect(cursor.length).toBeLessThanOrEqual(1024);
      expect(codec.open(cursor, binding())).toEqual({ side: 'after', position: { value: null, id: '9223372036854775807', digest: keysetValueDigest(value) } });
    }
  });

  it('opens nothing once any character is changed ("a tampered cursor → 400")', () => {
    const cursor = codec.sign('after', position, binding());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < cursor.length; i += 1) {
      const other = alphabet[(alphabet.indexOf(cursor[i]!) + 7) % alphabet.length]!;
      const tampered = `${cursor.slice(0, i)}${other}${cursor.slice(i + 1)}`;
      expect(codec.open(tampered, binding()), `character ${i}`).toBeUndefined();
    }
    expect(codec.open(`${cursor}A`, binding())).toBeUndefined();
    // The signature's last character carries spare bits: setting them is a change too.
    const last = cursor.at(-1)!;
    for (const spelling of alphabet.slice(0, 64)) if (spelling !== last) expect(codec.open(`${cursor.slice(0, -1)}${spelling}`, binding())).toBeUndefined();
    expect(codec.open(cursor.slice(0, -1), binding())).toBeUndefined();
  });

  it('opens nothing for another list, filter, search, order or actor ("another actor\'s cursor or one minted for another query → 400")', () => {
    const cursor = codec.sign('after', position, binding());
    for (const other of [
      binding({ list: 'comments' }),
      binding({ values: new Map([['filter[published]', ['false']]]) }),
      binding({ values: new Map([['filter[published]', ['true']], ['q', ['tea']]]) }),
      binding({ order: { column: 'published_on', direction: 'asc' } }),
      binding({ order: { column: 'title', direction: 'desc' } }),
      binding({ actor: 'user:3' }),
      binding({ actor: 'token:2' }),
    ]) {
      expect(codec.open(cursor, other)).toBeUndefined();
    }
  });

  it('binds the filters whatever their order in the query string, and ignores parameters that do not shape the list', () => {
    const one = binding({ values: new Map([['filter[a]', ['1']], ['filter[b]', ['2']], ['per_page', ['5']]]) });
    const two = binding({ values: new Map([['fields', ['id']], ['filter[b]', ['2']], ['filter[a]', ['1']]]) });
    expect(one).toBe(two);
  });

  it('rotates keys: the newest signs, every listed key opens, a removed key opens nothing', () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = new CursorCodec([older]).sign('after', position, binding());
    const rotated = new CursorCodec([newer, older]);
    expect(rotated.open(before, binding())).toEqual({ side: 'after', position });
    const after = rotated.sign('after', position, binding());
    expect(new CursorCodec([newer]).open(after, binding())).toEqual({ side: 'after', position });
    expect(new CursorCodec([newer]).open(before, binding())).toBeUndefined();
  });

  it('"opaque": never shows the place it holds (a value of a column the caller may not read), nor its length, and answers one page the same cursor', () => {
    const places = [position, { value: '2026-03-01 10:00:00+00', id: '3' }, { value: null, id: '9223372036854775807' }, { value: 'Ada', id: '1' }];
    const cursors = places.map((place) => codec.sign('after', place, binding()));
    for (const [i, cursor] of cursors.entries()) {
      for (const part of cursor.split('.')) {
        const text = Buffer.from(part, 'base64url').toString('latin1');
        // (Ids of a digit or two could be any byte: the long one stands for them.)
        for (const shown of [places[i]!.value, '9223372036854775807', '2026', '"a"']) if (shown !== null) expect(text).not.toContain(shown);
      }
      expect(codec.open(cursor, binding())).toEqual({ side: 'after', position: places[i] });
    }
    expect(new Set(cursors.map((cursor) => cursor.length)).size).toBe(1);
    expect(codec.sign('after', position, binding())).toBe(cursors[0]);
    expect(codec.sign('before', position, binding())).not.toBe(cursors[0]);
  });

  it('opens nothing that is not a cursor at all', () => {
    for (const junk of ['', '.', 'abc', 'a.b.c', '..', 'eyJ9.', `${'A'.repeat(5000)}.x`, '%%%.%%%']) expect(codec.open(junk, binding())).toBeUndefined();
  });

  it('derives keys from cursorSecret, else from the session secret (never the secret itself), else one random key per process', () => {
    const secret = 's'.repeat(32);
    const fromCursor = cursorKeys({ cursorSecret: [secret, 't'.repeat(32)] });
    expect(fromCursor.keys).toHaveLength(2);
    expect(fromCursor.ephemeral).toBe(false);
    expect(fromCursor.keys[0]!.equals(Buffer.from(secret))).toBe(false);
    expect(cursorKeys({ sessionSecret: secret }).keys[0]!.equals(fromCursor.keys[0]!)).toBe(true);
    const random = cursorKeys({});
    expect(random.ephemeral).toBe(true);
    expect(random.keys[0]!.equals(cursorKeys({}).keys[0]!)).toBe(false);
  });
});
