import { describe, expect, it } from 'vitest';
import { entityTag, entityTagOfJson } from './entity-tag.js';

describe('entityTagOfJson', () => {
  // The ETag is taken from the payload as sent; it must be the value entityTag gives for the body.
  const bodies: unknown[] = [
    { record: { id: 1, title: 'Hello', body: 'Line "one"\nline two \\ end', published: true, score: 1.5, tags: null } },
    { records: [{ id: 1, name: 'é ✓ \u2028' }, { id: 2, name: '' }], pagination: { page: 1, per_page: 25, total_pages: 1, total_count: 2, has_next_page: false, has_prev_page: false } },
    // "never because a signed URL was signed again": the rotating query is left out in both.
    { record: { id: 3, cover: { url: '/panel/blobs/abc/cover.png?expires=1790000000&signature=Zm9v_bar-1', filename: 'cover.png' } } },
    { record: { id: 4, note: 'a text that mentions ?expires=1&signature=x" inside', files: ['/f/a.pdf?expires=2&signature=y'] } },
  ];
  for (const body of bodies) {
    it(`gives entityTag's value for ${JSON.stringify(body).slice(0, 40)}…`, () => {
      expect(entityTagOfJson(JSON.stringify(body))).toBe(entityTag(body));
    });
  }

  it('does not change when only the signature rotates, and does when the path changes', () => {
    const at = (query: string, path = 'a.png') => entityTagOfJson(JSON.stringify({ record: { file: `/blobs/${path}${query}` } }));
    expect(at('?expires=1&signature=one')).toBe(at('?expires=2&signature=two'));
    expect(at('?expires=1&signature=one')).not.toBe(at('?expires=1&signature=one', 'b.png'));
  });
});
