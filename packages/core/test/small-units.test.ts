import { describe, expect, it } from 'vitest';
import {
  BLOB_KEY_LENGTH,
  BLOB_KEY_PATTERN,
  MAX_FILENAME_LENGTH,
  RecordErrors,
  Resource,
  attachmentUrl,
  attachmentsPath,
  blobChecksum,
  camelize,
  checkSessionSecrets,
  checkedContentType,
  compileResources,
  associationKey,
  didYouMean,
  field,
  fieldOptionKeys,
  hasColumn,
  isWritableType,
  humanize,
  isBlobKey,
  newBlobKey,
  newCsrfToken,
  resourceNameFromAssociation,
  resourceNaming,
  sanitizeFilename,
  secretsEqual,
  textProblem,
  underscore,
  unknownFieldOptionMessage,
  unpermittedKeys,
  writableFields,
} from '@panel/core';

describe('naming helpers', () => {
  it('underscore splits camel case and acronyms, and turns dashes and spaces into underscores', () => {
    expect(underscore('BlogPost')).toBe('blog_post');
    expect(underscore('HTTPRequest')).toBe('http_request');
    expect(underscore('APIToken2Factor')).toBe('api_token2_factor');
    expect(underscore('blog-post entry')).toBe('blog_post_entry');
    expect(underscore('already_snake')).toBe('already_snake');
  });

  it('camelize joins snake, dash and space separated words, dropping empty ones', () => {
    expect(camelize('blog_post')).toBe('BlogPost');
    expect(camelize('product-category')).toBe('ProductCategory');
    expect(camelize('__double__underscore_')).toBe('DoubleUnderscore');
    expect(camelize('x')).toBe('X');
  });

  it('humanize drops a trailing _id and capitalizes the first word only, as Rails does', () => {
    expect(humanize('blog_post')).toBe('Blog post');
    expect(humanize('author_id')).toBe('Author');
    expect(humanize('id')).toBe('Id');
    expect(humanize('')).toBe('');
  });

  it('pluralizes the route key by English rules, irregular and uncountable nouns included', () => {
    expect(resourceNaming('Category').routeKey).toBe('categories');
    expect(resourceNaming('Person').routeKey).toBe('people');
    expect(resourceNaming('Address').routeKey).toBe('addresses');
    expect(resourceNaming('Sheep').routeKey).toBe('sheep');
    expect(resourceNaming('Equipment').controllerName).toBe('EquipmentController');
    expect(resourceNaming('BlogPost').controllerFile).toBe('blog-posts-controller');
  });

  it('an association name points at the singular resource: people → Person, line_items → LineItem', () => {
    expect(resourceNameFromAssociation('people')).toBe('Person');
    expect(resourceNameFromAssociation('line_items')).toBe('LineItem');
    expect(resourceNameFromAssociation('categories')).toBe('Category');
  });

  it('freezes the names', () => {
    expect(Object.isFrozen(resourceNaming('BlogPost'))).toBe(true);
  });
});

describe('didYouMean', () => {
  it('suggests a word a swap, a letter or a case away', () => {
    expect(didYouMean('hideon', ['hideOn', 'onlyOn'])).toBe('hideOn');
    expect(didYouMean('sortabel', ['sortable', 'required'])).toBe('sortable');
    expect(didYouMean('colum', ['column', 'confirm'])).toBe('column');
  });

  it('suggests nothing when nothing is close, or nothing is known', () => {
    expect(didYouMean('zzz', ['required'])).toBeUndefined();
    expect(didYouMean('anything', [])).toBeUndefined();
    expect(didYouMean('ab', ['xy'])).toBeUndefined();
  });

  it('picks the closest of several', () => {
    expect(didYouMean('mnLength', ['maxLength', 'minLength'])).toBe('minLength');
  });
});

describe('textProblem: text PostgreSQL cannot store as sent', () => {
  it('a NUL character anywhere, in strings, arrays and object keys', () => {
    expect(textProblem('a\u0000b')).toBe('must not contain a NUL character');
    expect(textProblem(['ok', ['deep\u0000']])).toBe('must not contain a NUL character');
    expect(textProblem({ 'key\u0000': 'value' })).toBe('must not contain a NUL character');
  });

  it('a lone surrogate, high or low, but not a surrogate pair (an emoji)', () => {
    expect(textProblem('\uD800')).toBe('must be valid Unicode text (it has a lone surrogate)');
    expect(textProblem('x\uDC00y')).toBe('must be valid Unicode text (it has a lone surrogate)');
    expect(textProblem('🙂')).toBeUndefined();
    expect(textProblem({ emoji: ['🙂', 'é'] })).toBeUndefined();
  });

  it('numbers, booleans and null are fine; a very deep value is not walked forever', () => {
    for (const value of [1, true, null, undefined, {}, []]) expect(textProblem(value)).toBeUndefined();
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(() => textProblem(deep)).not.toThrow();
  });
});

describe('RecordErrors: messages per field, base for the whole record', () => {
  it('keeps each message once per field, in the order added', () => {
    const errors = new RecordErrors();
    errors.add('title', "can't be blank");
    errors.add('title', 'is too short (minimum is 3 characters)');
    errors.add('title', "can't be blank");
    errors.add('base', 'This record is locked.');
    expect(errors.toJSON()).toEqual({ title: ["can't be blank", 'is too short (minimum is 3 characters)'], base: ['This record is locked.'] });
  });

  it('tells whether any field, or one field, has a message', () => {
    const errors = new RecordErrors();
    expect(errors.has()).toBe(false);
    errors.add('title', 'is invalid');
    expect(errors.has()).toBe(true);
    expect(errors.has('title')).toBe(true);
    expect(errors.has('body')).toBe(false);
  });

  it('starts from given messages, de-duplicated, and answers a copy a caller cannot change it through', () => {
    const errors = new RecordErrors({ title: ['a', 'a', 'b'] });
    const json = errors.toJSON();
    json.title!.push('c');
    expect(errors.toJSON()).toEqual({ title: ['a', 'b'] });
  });
});

describe('unpermittedKeys: "other keys in the body are ignored" unless the app rejects them', () => {
  class ThingResource extends Resource {
    fields() {
      return [field.id(), field.text('name'), field.belongsTo('owner', { resource: 'Thing' }), field.text('secret', { readonly: true })];
    }
  }
  const thing = compileResources([ThingResource]).get('Thing')!;

  it('names every key that is not a writable field\'s write key: unknown, readonly, the id, a belongs_to under its field name', () => {
    const keys = unpermittedKeys({ name: 'x', owner_id: 1, owner: 1, id: 5, secret: 's', extra: true }, writableFields(thing, 'new'));
    expect(keys).toEqual(['owner', 'id', 'secret', 'extra']);
  });

  it('is empty for a body of writable keys only', () => {
    expect(unpermittedKeys({ name: 'x', owner_id: 1 }, writableFields(thing, 'edit'))).toEqual([]);
  });
});

describe('secrets and tokens', () => {
  it('secretsEqual compares whole values, of any length, without throwing', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
    expect(secretsEqual('', 'x')).toBe(false);
  });

  it('a CSRF token is 256 random bits in base64url, new each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newCsrfToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('session secrets: 32 characters or more, listed once each; the list is frozen', () => {
    const secrets = checkSessionSecrets(['a'.repeat(32), 'b'.repeat(40)]);
    expect(secrets).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
    expect(Object.isFrozen(secrets)).toBe(true);
    expect(() => checkSessionSecrets('a'.repeat(31))).toThrow(/^Panel config: sessionSecret must be a string of at least 32 characters\./);
    expect(() => checkSessionSecrets(['a'.repeat(32), 'short'])).toThrow(/^Panel config: sessionSecret\[1\] must be a string of at least 32 characters\./);
    expect(() => checkSessionSecrets([])).toThrow(/a non-empty list of them/);
    expect(() => checkSessionSecrets(['a'.repeat(32), 'a'.repeat(32)])).toThrow('Panel config: sessionSecret lists the same secret twice. Fix: list each secret once, the newest first.');
  });
});

describe('file names, media types and blob keys of attachments', () => {
  it('sanitizeFilename keeps a name as typed, minus path separators and control characters', () => {
    expect(sanitizeFilename('cover.png')).toBe('cover.png');
    expect(sanitizeFilename('  résumé final.pdf ')).toBe('résumé final.pdf');
    expect(sanitizeFilename('../../etc/passwd')).toBe('..-..-etc-passwd');
    expect(sanitizeFilename('C:\\Users\\me\\photo.jpg')).toBe('C--Users-me-photo.jpg');
    expect(sanitizeFilename('a\u0000b\nc<d>e|f?g*h"i')).toBe('a-b-c-d-e-f-g-h-i');
  });

  it('sanitizeFilename replaces the bidi controls as Active Storage\'s Filename#sanitized does, so "invoice\\u202Efdp.exe" cannot pass for "invoiceexe.pdf"', () => {
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoice-fdp.exe');
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(sanitizeFilename(`a${control}b.txt`), JSON.stringify(control)).toBe('a-b.txt');
    }
  });

  it('sanitizeFilename normalizes to NFC, so one name typed two ways is one name', () => {
    expect(sanitizeFilename('re\u0301sume\u0301.txt')).toBe('résumé.txt');
  });

  it('sanitizeFilename refuses what names no file, and a name over 255 characters', () => {
    for (const bad of ['', '   ', '.', '..']) expect(() => sanitizeFilename(bad), JSON.stringify(bad)).toThrow(/filename must name a file/);
    expect(() => sanitizeFilename(42)).toThrow('filename must be a string such as "cover.png", instead got 42.');
    expect(sanitizeFilename('é'.repeat(MAX_FILENAME_LENGTH))).toHaveLength(MAX_FILENAME_LENGTH);
    expect(() => sanitizeFilename('x'.repeat(256))).toThrow('filename must be at most 255 characters, instead got 256.');
  });

  it('checkedContentType takes a media type with parameters; none is application/octet-stream', () => {
    expect(checkedContentType('image/png')).toBe('image/png');
    expect(checkedContentType(' text/plain; charset=utf-8 ')).toBe('text/plain; charset=utf-8');
    expect(checkedContentType('multipart/form-data; boundary="a b"')).toBe('multipart/form-data; boundary="a b"');
    for (const none of [undefined, null, '']) expect(checkedContentType(none)).toBe('application/octet-stream');
  });

  it('checkedContentType refuses a header injection, a bare word, and an over-long value', () => {
    for (const bad of ['text/html\r\nSet-Cookie: a=b', 'png', 'image/', '/png', 'text/plain; charset', 5, `image/${'x'.repeat(260)}`]) {
      expect(() => checkedContentType(bad), JSON.stringify(bad)).toThrow(/contentType must be a media type such as "image\/png"/);
    }
  });

  it('a blob key is 28 characters of [a-z0-9], unguessable, new each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newBlobKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toHaveLength(BLOB_KEY_LENGTH);
      expect(isBlobKey(key)).toBe(true);
    }
    const letters = new Set([...keys].join(''));
    expect(letters.size).toBe(36);
  });

  it('isBlobKey refuses anything a path could be made of', () => {
    for (const bad of ['../etc', 'ABCDEFGHIJKLMNOPQRST', 'short', 'a'.repeat(65), 'abc/def0123456789abc', 42, null]) expect(isBlobKey(bad), String(bad)).toBe(false);
    expect(BLOB_KEY_PATTERN.test('a'.repeat(16))).toBe(true);
  });

  it('blobChecksum is the base64 MD5 of the bytes, as S3 and Active Storage give it', () => {
    expect(blobChecksum(new Uint8Array())).toBe('1B2M2Y8AsgTpgAmY7PhCfg==');
    expect(blobChecksum(Buffer.from('hello'))).toBe('XUFAKrxLKna5cZ2REBfFkg==');
  });

  it('a file URL lives under the root path, its name escaped', () => {
    expect(attachmentsPath('/panel')).toBe('/panel/attachments');
    expect(attachmentsPath('/')).toBe('/attachments');
    expect(attachmentUrl('/panel', { key: 'k'.repeat(28), filename: 'my cover?.png' })).toBe(`/panel/attachments/${'k'.repeat(28)}/my%20cover%3F.png`);
    expect(attachmentUrl('/', { key: 'abc', filename: 'a/b' })).toBe('/attachments/abc/a%2Fb');
  });
});

describe('questions answered by the built-in type modules', () => {
  it('hasColumn: the types stored in a column of the resource\'s table', () => {
    for (const type of ['id', 'text', 'number', 'boolean', 'date', 'datetime', 'belongs_to', 'select', 'textarea', 'markdown', 'password', 'tags', 'key_value', 'json']) expect(hasColumn(type), type).toBe(true);
    for (const type of ['has_many', 'has_one', 'has_and_belongs_to_many', 'file', 'files']) expect(hasColumn(type), type).toBe(false);
  });

  it('isWritableType: the types a write body may set', () => {
    for (const type of ['text', 'number', 'boolean', 'date', 'datetime', 'belongs_to', 'select', 'password', 'tags', 'key_value', 'json']) expect(isWritableType(type), type).toBe(true);
    for (const type of ['id', 'has_many', 'has_one', 'has_and_belongs_to_many', 'file', 'files']) expect(isWritableType(type), type).toBe(false);
  });

  it('refuses a type that is not built in, naming the built-in ones', () => {
    expect(() => hasColumn('stars')).toThrow(/^"stars" is not a built-in field type \(id, text, number/);
  });

  it('associationKey names where a row carries an association\'s value: __<type>__<name>', () => {
    class PieceResource extends Resource {
      fields() {
        return [field.id(), field.belongsTo('maker', { resource: 'Piece' }), field.hasMany('parts', { resource: 'Piece' }), field.file('photo')];
      }
    }
    const piece = compileResources([PieceResource]).get('Piece')!;
    expect(['maker', 'parts', 'photo'].map((name) => associationKey(piece.fieldsByName.get(name)!))).toEqual(['__belongs_to__maker', '__has_many__parts', '__file__photo']);
  });

  it('each builder names its own options, and an unknown one gets the closest', () => {
    expect(fieldOptionKeys('select')).toContain('options');
    expect(fieldOptionKeys('text')).not.toContain('options');
    expect(fieldOptionKeys('tags')).toContain('maxTags');
    expect(unknownFieldOptionMessage('select', 'status', 'optoins')).toMatch(/^field\.select\('status'\): unknown option "optoins"\. Did you mean "options"\? Fix: use one of /);
  });
});
