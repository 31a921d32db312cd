import { describe, expect, it } from 'vitest';
import {
  Current,
  DEFAULT_EXACT_BELOW,
  DEFAULT_MAX_CACHED_COUNTS,
  Resource,
  compileResources,
  field,
  formatWalPosition,
  normalizeCountStrategy,
  normalizePanelConfig,
  parseWalPosition,
  recordSchema,
  writeSchema,
} from '@panel/core';

class AuthorResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}

class ArticleResource extends Resource {
  fields() {
    return [
      field.id(),
      field.text('title', { required: true, maxLength: 80 }),
      field.textarea('body'),
      field.integer('words', { min: 0 }),
      field.decimal('score'),
      field.boolean('published'),
      field.date('published_on'),
      field.datetime('created_at', { hideOn: ['new', 'edit'] }),
      field.select('status', { options: ['draft', 'live'], required: true }),
      field.tags('labels', { maxTags: 5 }),
      field.keyValue('meta'),
      field.password('secret'),
      field.belongsTo('author'),
      field.text('slug', { readonly: true }),
      field.text('editor_note', { readonly: () => false }),
    ];
  }
}

const article = compileResources([AuthorResource, ArticleResource]).get('Article')!;

describe('recordSchema: the JSON Schema of a record on a view', () => {
  it('has one property per field on the view, every one required, nothing else allowed', () => {
    const schema = recordSchema(article, 'index') as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(schema.properties));
    expect(Object.keys(schema.properties)).toEqual(['id', 'title', 'words', 'score', 'published', 'published_on', 'created_at', 'status', 'labels', 'meta', 'author', 'slug', 'editor_note']);
  });

  it('never describes a password, on any view', () => {
    for (const view of ['index', 'show'] as const) expect(Object.keys((recordSchema(article, view) as { properties: object }).properties)).not.toContain('secret');
  });

  it('describes each value as it is answered: nullable, with its format', () => {
    const { properties } = recordSchema(article, 'show') as { properties: Record<string, Record<string, unknown>> };
    expect(properties.title).toEqual({ type: ['string', 'null'] });
    expect(properties.words).toMatchObject({ type: ['integer', 'null'], minimum: 0 });
    expect(properties.score).toMatchObject({ type: ['number', 'null'] });
    expect(properties.published_on).toEqual({ type: ['string', 'null'], format: 'date' });
    expect(properties.created_at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(properties.status).toEqual({ type: ['string', 'null'], enum: ['draft', 'live', null] });
    expect(properties.labels).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } });
    expect(properties.meta).toMatchObject({ type: ['object', 'null'], additionalProperties: { type: 'string' } });
  });
});

describe('writeSchema: the JSON Schema of a write body', () => {
  it('names each writable field by its write key; a belongs_to as <name>_id', () => {
    const schema = writeSchema(article, 'new') as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['title', 'body', 'words', 'score', 'published', 'published_on', 'status', 'labels', 'meta', 'secret', 'author_id', 'editor_note']);
  });

  it('leaves out the id, fields off the form and readonly: true fields, but keeps a field whose readonly is a rule', () => {
    const keys = Object.keys((writeSchema(article, 'edit') as { properties: object }).properties);
    expect(keys).not.toEqual(expect.arrayContaining(['id']));
    expect(keys).not.toContain('created_at');
    expect(keys).not.toContain('slug');
    expect(keys).toContain('editor_note');
  });

  it('requires the required fields on create only, and does not let them be null', () => {
    const create = writeSchema(article, 'new') as { required?: string[]; properties: Record<string, Record<string, unknown>> };
    expect(create.required).toEqual(['title', 'status']);
    expect(create.properties.title).toEqual({ type: 'string', maxLength: 80 });
    expect(create.properties.status).toEqual({ type: 'string', enum: ['draft', 'live'] });
    expect((writeSchema(article, 'edit') as { required?: string[] }).required).toBeUndefined();
    expect((writeSchema(article, 'edit') as { properties: Record<string, unknown> }).properties.title).toEqual({ type: 'string', maxLength: 80 });
  });

  it('carries the write limits: tags, password length, write-only', () => {
    const { properties } = writeSchema(article, 'new') as { properties: Record<string, Record<string, unknown>> };
    expect(properties.labels).toMatchObject({ maxItems: 5, items: { type: 'string', minLength: 1, maxLength: 100 } });
    expect(properties.secret).toEqual({ type: ['string', 'null'], writeOnly: true, maxLength: 1024 });
  });
});

describe('count strategies', () => {
  it('reads the two shorthands and fills the defaults', () => {
    expect(normalizeCountStrategy(undefined, 'count')).toEqual({ strategy: 'exact' });
    expect(normalizeCountStrategy('exact', 'count')).toEqual({ strategy: 'exact' });
    expect(normalizeCountStrategy('estimate', 'count')).toEqual({ strategy: 'estimate', exactBelow: DEFAULT_EXACT_BELOW });
    const cached = normalizeCountStrategy({ strategy: 'cached', maxAgeMs: 500 }, 'count');
    expect(cached).toMatchObject({ strategy: 'cached', maxAgeMs: 500, maxEntries: DEFAULT_MAX_CACHED_COUNTS });
    expect(cached.strategy === 'cached' && cached.now).toBe(Date.now);
  });

  it('an exactBelow of 0 means always the estimate', () => {
    expect(normalizeCountStrategy({ strategy: 'estimate', exactBelow: 0 }, 'count')).toEqual({ strategy: 'estimate', exactBelow: 0 });
  });

  it('fails naming the option path, the value and the fix', () => {
    expect(() => normalizeCountStrategy('fast', 'count')).toThrow(/^Panel config: count must be 'exact', 'estimate', .* instead got "fast"\. Fix: use one of these, or leave count out for the exact count\.$/);
    expect(() => normalizeCountStrategy({ strategy: 'guess' }, 'Post.count')).toThrow(/^Panel config: Post\.count needs strategy 'exact', 'estimate' or 'cached'/);
    expect(() => normalizeCountStrategy({ strategy: 'estimate', maxAgeMs: 5 }, 'count')).toThrow(`has the option "maxAgeMs", which the 'estimate' strategy does not take`);
    expect(() => normalizeCountStrategy({ strategy: 'cached' }, 'count')).toThrow(/^Panel config: count\.maxAgeMs must be a whole number of at least 1, instead got undefined\. Fix: set maxAgeMs to a number such as 10000\.$/);
    expect(() => normalizeCountStrategy({ strategy: 'cached', maxAgeMs: 0 }, 'count')).toThrow(/count\.maxAgeMs must be a whole number of at least 1/);
    expect(() => normalizeCountStrategy({ strategy: 'cached', maxAgeMs: 10, maxEntries: 0 }, 'count')).toThrow(/count\.maxEntries must be a whole number of at least 1/);
    expect(() => normalizeCountStrategy({ strategy: 'cached', maxAgeMs: 10, now: 5 }, 'count')).toThrow(/count\.now must be a function returning milliseconds/);
    expect(() => normalizeCountStrategy(['exact'], 'count')).toThrow(/instead got \["exact"\]/);
  });

  it('the result is frozen', () => {
    expect(Object.isFrozen(normalizeCountStrategy('estimate', 'count'))).toBe(true);
  });
});

describe('panel options beyond the defaults', () => {
  it('takes a root path with nested segments, or "/"; refuses a trailing slash, a space, a query', () => {
    expect(normalizePanelConfig({ rootPath: '/admin/panel' }).rootPath).toBe('/admin/panel');
    expect(normalizePanelConfig({ rootPath: '/' }).rootPath).toBe('/');
    for (const bad of ['/panel/', '/my panel', '/panel?x=1', '', 'panel', '/panel#top']) {
      expect(() => normalizePanelConfig({ rootPath: bad }), bad).toThrow(/rootPath must be a URL path such as "\/panel"/);
    }
  });

  it('takes a session cookie name of token characters only', () => {
    expect(normalizePanelConfig({ sessionCookie: 'app.session-v2' }).sessionCookie).toBe('app.session-v2');
    for (const bad of ['my session', 'a;b', 'a=b', '']) expect(() => normalizePanelConfig({ sessionCookie: bad }), bad).toThrow(/sessionCookie must be a cookie name/);
  });

  it('keeps one session secret as given, and a list of them checked and frozen', () => {
    expect(normalizePanelConfig({ sessionSecret: 's'.repeat(32) }).sessionSecret).toBe('s'.repeat(32));
    const list = normalizePanelConfig({ sessionSecret: ['n'.repeat(32), 'o'.repeat(32)] }).sessionSecret;
    expect(list).toEqual(['n'.repeat(32), 'o'.repeat(32)]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(() => normalizePanelConfig({ sessionSecret: 12 as never })).toThrow('Panel config: sessionSecret must be a string, instead got 12.');
  });

  it('currentUserMethod and authorizationClient may be null; the license lists known features only', () => {
    const config = normalizePanelConfig({ currentUserMethod: null, authorizationClient: 'policies', license: { features: ['api', 'authorization'] } });
    expect(config).toMatchObject({ currentUserMethod: null, authorizationClient: 'policies', license: { features: ['api', 'authorization'] } });
    expect(Object.isFrozen(config.license.features)).toBe(true);
    expect(() => normalizePanelConfig({ authorizationClient: 'my client' })).toThrow(/authorizationClient must be an authorization plug-in's identifier/);
    expect(() => normalizePanelConfig({ license: 'pro' as never })).toThrow(/license must be \{ features: \[\.\.\.\] \}/);
  });

  it('names the other options an unknown key could have meant', () => {
    expect(() => normalizePanelConfig({ database: 1 } as never, ['database', 'resources'])).toThrow(/^Panel config: unknown option "database"\. Fix: use one of database, resources, perPage/);
    expect(() => normalizePanelConfig(null as never)).toThrow('Panel config must be an object, instead got null.');
  });

  it('perPage may equal maxPerPage', () => {
    expect(normalizePanelConfig({ perPage: 50, maxPerPage: 50 })).toMatchObject({ perPage: 50, maxPerPage: 50 });
  });
});

describe('WAL positions (read-your-writes on replicas)', () => {
  it('reads PostgreSQL\'s "X/Y" text into one number, in order', () => {
    expect(parseWalPosition('0/16B3748')).toBe(0x16b3748n);
    expect(parseWalPosition('1/0')).toBe(1n << 32n);
    expect(parseWalPosition(' A/FF ')).toBe((0xan << 32n) | 0xffn);
    expect(parseWalPosition('0/FFFFFFFF')! < parseWalPosition('1/0')!).toBe(true);
  });

  it('writes it back as PostgreSQL does, upper case', () => {
    for (const text of ['0/16B3748', '1/0', 'FFFFFFFF/FFFFFFFF', '2A/3']) expect(formatWalPosition(parseWalPosition(text)!)).toBe(text);
    expect(formatWalPosition(parseWalPosition('a/ff')!)).toBe('A/FF');
  });

  it('refuses anything that is not a position, without throwing', () => {
    for (const bad of ['', '0', '0/', '/1', 'G/1', '123456789/0', '0/1/2', 42, null, undefined]) expect(parseWalPosition(bad), String(bad)).toBeUndefined();
  });
});

describe('Current: the user of the request running now', () => {
  it('is null outside a request and in a new one', async () => {
    expect(Current.user).toBeNull();
    await Current.run(async () => {
      expect(Current.user).toBeNull();
    });
  });

  it('keeps each request\'s user apart, across awaits', async () => {
    const seen: unknown[] = [];
    const request = (user: string, wait: number) =>
      Current.run(async () => {
        Current.user = user;
        await new Promise((resolve) => setTimeout(resolve, wait));
        seen.push(Current.user);
      });
    await Promise.all([request('ada', 20), request('bob', 5)]);
    expect(seen.sort()).toEqual(['ada', 'bob']);
    expect(Current.user).toBeNull();
  });

  it('refuses an assignment outside a request, so a user never leaks into the next one', () => {
    expect(() => {
      Current.user = 'ada';
    }).toThrow('Current.user can only be assigned while a request is running (inside Current.run).');
  });
});
