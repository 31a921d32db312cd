import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretKeyObject } from './secret-key-object.js';

describe('secretKeyObject', () => {
  it('makes one KeyObject per key, bytes or text, and reuses it', () => {
    const bytes = randomBytes(32);
    expect(secretKeyObject(bytes)).toBe(secretKeyObject(bytes));
    expect(secretKeyObject('a pepper of the configuration')).toBe(secretKeyObject('a pepper of the configuration'));
    expect(secretKeyObject(randomBytes(32))).not.toBe(secretKeyObject(bytes));
  });

  it('signs exactly as the key given as bytes or text does', () => {
    const bytes = randomBytes(32);
    const mac = (key: Parameters<typeof createHmac>[1]) => createHmac('sha256', key).update('cursor payload').digest('hex');
    expect(mac(secretKeyObject(bytes))).toBe(mac(bytes));
    expect(mac(secretKeyObject('pépper'))).toBe(mac('pépper'));
  });

  it('keeps a bounded number of text keys: the 33rd distinct one starts the map over, and every answer stays right', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `pepper ${i}`);
    const made = keys.map((key) => secretKeyObject(key));
    // The 33rd distinct text key started the map over: the first key is made again.
    expect(secretKeyObject(keys[0]!)).not.toBe(made[0]);
    for (const [i, key] of keys.entries()) {
      expect(secretKeyObject(key).export().toString('utf8')).toBe(key);
      expect(made[i]!.export().toString('utf8')).toBe(key);
    }
  });
});
