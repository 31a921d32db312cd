import { describe, expect, it } from 'vitest';
import { entityTag, entityTagOfJson, withEntityTagForm } from './entity-tag.js';

describe('entityTagOfJson', () => {
  // The ETag is taken from the payload as sent; it must be the value entityTag gives for the body.
  const bodies: unknown[] = [
    { record: { id: 1, title: 'Hello', body: 'Line "one"\nline two \\ end', published: true, score: 1.5, tags: null } },
    { records: [{ id: 1, name: 'é ✓ \u2028' }, { id: 2, name: '' }], pagination: { page: 1, per_page: 25, total_pages: 1, total_count: 2, has_next_page: false, has_prev_page: false } },
    { record: { id: 4, note: 'a text that mentions ?expires=1&signature=x" inside', specs: { 'size?expires=1&signature=a': 'large' } } },
  ];
  for (const body of bodies) {
    it(`gives entityTag's value for ${JSON.stringify(body).slice(0, 40)}…`, () => {
      expect(entityTagOfJson(JSON.stringify(body))).toBe(entityTag(body));
    });
  }
});

describe('entityTag ("ETags hash exactly the bytes of the answer, except the signed part of file URLs, removed where it is made")', () => {
  it('text that only looks like a signed URL\'s query is content: changing it changes the tag, in a value and in a key', () => {
    const note = (text: string) => entityTag({ record: { note: text } });
    expect(note('x?expires=1&signature=a')).not.toBe(note('x?expires=2&signature=b'));
    expect(note('x?expires=1&signature=a')).not.toBe(note('x'));
    const key = (name: string) => entityTag({ record: { specs: { [name]: 'large' } } });
    expect(key('size?expires=1&signature=a')).not.toBe(key('size'));
  });

  it('a value made with a form of its own is hashed as that form: a file signed again keeps its tag, another file changes it', () => {
    const file = (path: string, query: string) => withEntityTagForm({ filename: 'a.png', url: `${path}${query}` }, { filename: 'a.png', url: path });
    const tag = (path: string, query: string) => entityTag({ record: { id: 3, cover: file(path, query), files: [file(path, query)] } });
    expect(tag('/signed/k1/a.png', '?expires=1&signature=one')).toBe(tag('/signed/k1/a.png', '?expires=2&signature=two'));
    expect(tag('/signed/k1/a.png', '?expires=1&signature=one')).not.toBe(tag('/signed/k2/a.png', '?expires=1&signature=one'));
    // The form is what the tag covers, and it is not part of the JSON answered.
    expect(tag('/signed/k1/a.png', '?expires=1&signature=one')).toBe(entityTag({ record: { id: 3, cover: { filename: 'a.png', url: '/signed/k1/a.png' }, files: [{ filename: 'a.png', url: '/signed/k1/a.png' }] } }));
    expect(JSON.stringify(file('/p', '?q'))).toBe('{"filename":"a.png","url":"/p?q"}');
  });
});
