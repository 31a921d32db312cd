import { describe, expect, it } from 'vitest';
import { pageRequest, pagination } from './page-modifier.js';

const config = { perPage: 24, maxPerPage: 100 };

describe('pageRequest', () => {
  it('defaults page to 1 and per_page to the configured value ("page: default 1", "per_page: default is the configured per-page value")', () => {
    expect(pageRequest({}, undefined, config)).toEqual({ page: 1, perPage: 24, perPageFromQuery: false });
  });

  it('keeps the cookie-stored per_page when the parameter is omitted', () => {
    expect(pageRequest({}, '7', config).perPage).toBe(7);
    expect(pageRequest({ per_page: '9' }, '7', config)).toEqual({ page: 1, perPage: 9, perPageFromQuery: true });
  });

  it('clamps per_page to maxPerPage', () => {
    expect(pageRequest({ per_page: '5000' }, undefined, config).perPage).toBe(100);
  });

  it('refuses a page or per_page that is not a positive integer', () => {
    expect(() => pageRequest({ page: '0' }, undefined, config)).toThrow('page must be a positive integer (at most 1000000000), instead got "0"');
    expect(() => pageRequest({ page: 'abc' }, undefined, config)).toThrow(/page must be a positive integer/);
    expect(() => pageRequest({ per_page: '-1' }, undefined, config)).toThrow(/per_page must be a positive integer/);
    expect(() => pageRequest({ page: ['1', '2'] }, undefined, config)).toThrow('page must be a positive integer (at most 1000000000), instead got several values');
  });
});

describe('pagination', () => {
  it('computes the envelope, with at least one page', () => {
    expect(pagination(2, 5, 12)).toEqual({ page: 2, per_page: 5, total_pages: 3, total_count: 12, has_next_page: true, has_prev_page: true });
    expect(pagination(1, 24, 0)).toEqual({ page: 1, per_page: 24, total_pages: 1, total_count: 0, has_next_page: false, has_prev_page: false });
    expect(pagination(9, 5, 12)).toMatchObject({ total_pages: 3, has_next_page: false, has_prev_page: true });
  });
});
