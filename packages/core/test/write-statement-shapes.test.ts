import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CompiledResource } from '@panel/core';
import { MAX_WRITE_SHAPES, compiledWrite as compiledWriteIn } from '../src/records/write-statements.js';
import { ShapeStatementCache } from '../src/records/statement-cache.js';

// A write's statement is compiled once per resource, view and column list. The column list is
// what a client chooses to send, so the kept statements are bounded: a client sending every
// subset of a resource's writable fields must not grow the process's memory without end.

const statement = (columns: readonly string[]) => (values: readonly unknown[]) =>
  CompiledQuery.raw(`insert into t (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning *`, [...values]);
const shape = (columns: readonly string[], values: readonly unknown[]) => ({ key: columns.join(','), values, builder: statement(columns), checked: () => ({ changes: {}, existing: undefined }) });
/** The statement cache of a records layer; each test's resources are objects of their own, with their own budgets in it. */
const cache = new ShapeStatementCache();
const compiledWrite = (...args: Parameters<typeof compiledWriteIn> extends [unknown, ...infer Rest] ? Rest : never) => compiledWriteIn(cache, ...args);
/** Builds and compiles a shape's statement with the values given (markers, or the write's own), as `writeAndRead` does. */
const compileOf = (columns: readonly string[]) => async (values: readonly unknown[]) => statement(columns)(values);

describe('compiledWrite', () => {
  it("fills a kept statement with each write's own values", async () => {
    const resource = {} as CompiledResource;
    const first = (await compiledWrite(resource, 'show', shape(['title', 'pages'], ['One', 1]), compileOf(['title', 'pages'])))!;
    let compiles = 0;
    const counted = async (values: readonly unknown[]) => {
      compiles += 1;
      return statement(['title', 'pages'])(values);
    };
    const second = (await compiledWrite(resource, 'show', shape(['title', 'pages'], ['Two', 2]), counted))!;
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual(['One', 1]);
    expect(second.parameters).toEqual(['Two', 2]);
    expect(compiles).toBe(0);
  });

  it(`keeps at most ${MAX_WRITE_SHAPES} column lists per resource; past them a new list is built per write (undefined), and the kept ones still serve`, async () => {
    const resource = {} as CompiledResource;
    for (let i = 0; i < MAX_WRITE_SHAPES; i += 1) {
      expect(await compiledWrite(resource, 'show', shape([`c${i}`], [i]), compileOf([`c${i}`])), `shape ${i}`).toBeDefined();
    }
    expect(await compiledWrite(resource, 'show', shape(['one_more'], ['x']), compileOf(['one_more']))).toBeUndefined();
    expect((await compiledWrite(resource, 'show', shape(['c0'], ['again']), compileOf(['c0'])))?.parameters).toEqual(['again']);
    // Another resource has its own budget.
    expect(await compiledWrite({} as CompiledResource, 'show', shape(['one_more'], ['x']), compileOf(['one_more']))).toBeDefined();
  });

  it('a statement that does not take every value as a parameter is never kept as a template', async () => {
    const resource = {} as CompiledResource;
    const inlined = async () => CompiledQuery.raw("insert into t (title) values ('x')", []);
    expect(await compiledWrite(resource, 'show', shape(['title'], ['x']), inlined)).toBeUndefined();
  });

  it('a statement whose SQL depends on a value (a check that chooses its SQL by the value) is never kept: the markers build other SQL than the write', async () => {
    const resource = {} as CompiledResource;
    // An empty title is checked by a condition of its own; any other value by a parameter.
    const chooses = async (values: readonly unknown[]) =>
      values[0] === '' ? CompiledQuery.raw('insert into t (title) select $1 where false returning *', [...values]) : CompiledQuery.raw('insert into t (title) select $1 where true returning *', [...values]);
    expect(await compiledWrite(resource, 'show', shape(['title'], ['']), chooses)).toBeUndefined();
    // A check that cannot take a marker (it reads the value as a number) is built per write too.
    const numeric = async (values: readonly unknown[]) => CompiledQuery.raw(`insert into t (pages) values ($1) returning * -- ${Number(values[0]) + 1}`, [...values]);
    expect(await compiledWrite({} as CompiledResource, 'show', shape(['pages'], [1]), numeric)).toBeUndefined();
  });
});
