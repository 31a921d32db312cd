import { describe, expect, it } from 'vitest';
import {
  DatabaseUnavailableError,
  FileNotFoundError,
  NotAuthorizedError,
  PanelConfigError,
  PanelError,
  RecordInvalidError,
  RecordNotFoundError,
  StorageError,
  currentReadConsistency,
  isPanelError,
  runWithReadConsistency,
} from '@panel/core';

describe('Panel\'s errors: one class per failure, each with a stable code', () => {
  it('each carries its code, its class name, and is an Error', () => {
    const cases = [
      [new PanelConfigError('x'), 'PANEL_ERR_CONFIG', 'PanelConfigError'],
      [new RecordNotFoundError('Book', 5), 'PANEL_ERR_RECORD_NOT_FOUND', 'RecordNotFoundError'],
      [new RecordInvalidError({ title: ["can't be blank"] }), 'PANEL_ERR_RECORD_INVALID', 'RecordInvalidError'],
      [new NotAuthorizedError('update', 'Book'), 'PANEL_ERR_NOT_AUTHORIZED', 'NotAuthorizedError'],
      [new FileNotFoundError('abc'), 'PANEL_ERR_FILE_NOT_FOUND', 'FileNotFoundError'],
      [new StorageError('down'), 'PANEL_ERR_STORAGE', 'StorageError'],
      [new DatabaseUnavailableError('timeout', 'slow'), 'PANEL_ERR_DATABASE_UNAVAILABLE', 'DatabaseUnavailableError'],
    ] as const;
    for (const [error, code, name] of cases) {
      expect(error.code, name).toBe(code);
      expect(error.name).toBe(name);
      expect(error).toBeInstanceOf(PanelError);
      expect(error).toBeInstanceOf(Error);
      expect(isPanelError(error, code)).toBe(true);
    }
  });

  it('"Couldn\'t find <Resource> with id=<id>", as Rails says it', () => {
    expect(new RecordNotFoundError('BlogPost', 42).message).toBe("Couldn't find BlogPost with id=42");
  });

  it('a validation failure lists every field and message, and keeps them for the 422 body', () => {
    const error = new RecordInvalidError({ title: ["can't be blank", 'is too short (minimum is 3 characters)'], base: ['Locked.'] });
    expect(error.message).toBe("Validation failed: title can't be blank, is too short (minimum is 3 characters); base Locked.");
    expect(error.errors).toEqual({ title: ["can't be blank", 'is too short (minimum is 3 characters)'], base: ['Locked.'] });
  });

  it('a refusal names the action and the resource, and keeps the action', () => {
    const error = new NotAuthorizedError('destroy', 'Blog post');
    expect(error.message).toBe('You are not authorized to destroy this Blog post.');
    expect(error.action).toBe('destroy');
  });

  it('a storage or database failure keeps what caused it', () => {
    const cause = new Error('ECONNRESET');
    expect(new StorageError('upload failed', { cause }).cause).toBe(cause);
    const unavailable = new DatabaseUnavailableError('connection', 'no database', { cause });
    expect(unavailable.cause).toBe(cause);
    expect(unavailable.reason).toBe('connection');
    expect(new StorageError('no cause').cause).toBeUndefined();
    expect(new FileNotFoundError('k1').key).toBe('k1');
  });

  it('isPanelError recognises a Panel error by its code, also from another copy of the package, and nothing else', () => {
    expect(isPanelError({ code: 'PANEL_ERR_RECORD_INVALID', message: 'x' })).toBe(true);
    expect(isPanelError({ code: 'PANEL_ERR_RECORD_INVALID' }, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(false);
    for (const other of [new Error('x'), { code: 'ECONNREFUSED' }, { code: 42 }, null, undefined, 'PANEL_ERR_CONFIG']) expect(isPanelError(other), String(other)).toBe(false);
  });
});

describe('read consistency of a request (read-your-writes)', () => {
  it('is undefined outside a request, and starts from the position the request brings', async () => {
    expect(currentReadConsistency()).toBeUndefined();
    await runWithReadConsistency(42n, async () => {
      expect(currentReadConsistency()).toEqual({ readAfter: 42n, wrote: undefined });
    });
  });

  it('keeps each request\'s position apart, across awaits', async () => {
    const seen: unknown[] = [];
    await Promise.all(
      [1n, 2n, 3n].map((position) =>
        runWithReadConsistency(position, async () => {
          await new Promise((resolve) => setTimeout(resolve, Number(4n - position) * 5));
          seen.push(currentReadConsistency()!.readAfter);
        }),
      ),
    );
    expect(seen.sort()).toEqual([1n, 2n, 3n]);
  });

  it('hands the work its consistency and returns what the work returns', () => {
    expect(runWithReadConsistency(undefined, (consistency) => (consistency === currentReadConsistency() ? 'same' : 'other'))).toBe('same');
  });
});
