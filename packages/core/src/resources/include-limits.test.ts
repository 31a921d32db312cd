import { describe, expect, it } from 'vitest';
import { Resource } from './resource.js';
import { compileResources } from './compiled-resource.js';
import { field } from '../fields/field-builders.js';
import { DEFAULT_INCLUDE_LIMITS, normalizeIncludeLimits } from './include-limits.js';

describe('static include: "Depth ≤ 2 (default; max 3), ≤ 5 paths after expansion (default; max 8) … ≤ 2,500 embedded records (default; max 10,000)"', () => {
  it('takes the defaults without static include, and a resource\'s own limits within the maxima', () => {
    class NoteResource extends Resource {
      static override include = { maxDepth: 3, maxEmbedded: 10_000 };
      fields() {
        return [field.id()];
      }
    }
    class TagResource extends Resource {
      fields() {
        return [field.id()];
      }
    }
    const compiled = compileResources([NoteResource, TagResource]);
    expect(compiled.get('Note')!.include).toEqual({ maxDepth: 3, maxPaths: 5, maxEmbedded: 10_000, perPage: 5 });
    expect(compiled.get('Tag')!.include).toBe(DEFAULT_INCLUDE_LIMITS);
  });

  it('fails at boot past a hard maximum, on an unknown limit and on a value that is not a whole number, naming the option and the fix', () => {
    expect(() => normalizeIncludeLimits({ maxDepth: 4 }, 'NoteResource.include')).toThrow('Resource NoteResource.include.maxDepth must be a whole number from 1 to 3, instead got 4. Fix: static include = { maxDepth: 2, maxPaths: 5, maxEmbedded: 2500, perPage: 5 } (any of them), each within its maximum (maxDepth 3, maxPaths 8, maxEmbedded 10000, perPage 20).');
    expect(() => normalizeIncludeLimits({ maxPaths: 9 }, 'NoteResource.include')).toThrow(/maxPaths must be a whole number from 1 to 8, instead got 9/);
    expect(() => normalizeIncludeLimits({ maxEmbedded: 10_001 }, 'NoteResource.include')).toThrow(/maxEmbedded must be a whole number from 1 to 10000/);
    expect(() => normalizeIncludeLimits({ perPage: 0 }, 'NoteResource.include')).toThrow(/perPage must be a whole number from 1 to 20, instead got 0/);
    expect(() => normalizeIncludeLimits({ depth: 2 }, 'NoteResource.include')).toThrow(/has the option "depth", which is not an include limit/);
    expect(() => normalizeIncludeLimits(3, 'NoteResource.include')).toThrow(/must be an object of limits, instead got 3/);
    expect(() => normalizeIncludeLimits({ maxDepth: 1.5 }, 'NoteResource.include')).toThrow(/instead got 1.5/);
  });
});
