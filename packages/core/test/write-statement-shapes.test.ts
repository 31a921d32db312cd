import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CompiledResource } from '@panel/core';
import { MAX_WRITE_SHAPES, compiledWrite } from '../src/records/write-statements.js';

// A write's statement is compiled once per resource, view and column list. The column list is
// what a client chooses to send, so the kept statements are bounded: a client sending every
// subset of a resource's writable fields must not grow the process's memory without end.

const shape = (columns: readonly string[], values: readonly unknown[]) => ({
  key: columns.join(','),
  values,
  builder: (markers: readonly unknown[]) => CompiledQuery.raw(`insert into t (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning *`, [...markers]),
});
const compile = (query: CompiledQuery) => query;

describe('compiledWrite', () => {
  it('fills a kept statement with each write\'s own values', () => {
    const resource = {} as CompiledResource;
    const first = compiledWrite(resource, 'show', shape(['title', 'pages'], ['One', 1]), compile)!;
    const second = compiledWrite(resource, 'show', shape(['title', 'pages'], ['Two', 2]), compile)!;
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual(['One', 1]);
    expect(second.parameters).toEqual(['Two', 2]);
  });

  it(`keeps at most ${MAX_WRITE_SHAPES} column lists per resource; past them a new list is built per write (undefined), and the kept ones still serve`, () => {
    const resource = {} as CompiledResource;
    for (let i = 0; i < MAX_WRITE_SHAPES; i += 1) {
      expect(compiledWrite(resource, 'show', shape([`c${i}`], [i]), compile), `shape ${i}`).toBeDefined();
    }
    expect(compiledWrite(resource, 'show', shape(['one_more'], ['x']), compile)).toBeUndefined();
    expect(compiledWrite(resource, 'show', shape(['c0'], ['again']), compile)?.parameters).toEqual(['again']);
    // Another resource has its own budget.
    expect(compiledWrite({} as CompiledResource, 'show', shape(['one_more'], ['x']), compile)).toBeDefined();
  });

  it('a statement that does not take every value as a parameter is never kept as a template', () => {
    const resource = {} as CompiledResource;
    const inlined = { key: 'title', values: ['x'], builder: () => CompiledQuery.raw("insert into t (title) values ('x')", []) };
    expect(compiledWrite(resource, 'show', inlined, compile)).toBeUndefined();
  });
});
