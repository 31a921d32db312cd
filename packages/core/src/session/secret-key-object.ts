import { createSecretKey, type KeyObject } from 'node:crypto';

/** Secret keys given as bytes, each made a `KeyObject` once (held as long as its bytes are). */
const fromBytes = new WeakMap<Buffer, KeyObject>();
/** Secret keys given as text (a pepper from the configuration): a handful per process. */
const fromText = new Map<string, KeyObject>();
/** More distinct text keys than a configuration has: the map starts over rather than grow. */
const MAX_TEXT_KEYS = 32;

/**
 * A secret key as a `KeyObject`, made once per key and reused: `createHmac` and
 * `createCipheriv` given a key as bytes make one on every call, which costs Node 24 some 7–9 µs
 * a call (about 1.5 µs given text, and on Node 20 and 22 either way) — per cursor, signed file
 * URL and session cookie. Text keys (a pepper) go through it too, so that every key is handled
 * alike. The answers are the same bytes.
 *
 * @example
 * createHmac('sha256', secretKeyObject(pepper)).update(secret).digest('hex');
 */
export function secretKeyObject(key: Buffer | string): KeyObject {
  if (typeof key === 'string') {
    let made = fromText.get(key);
    if (made === undefined) {
      if (fromText.size >= MAX_TEXT_KEYS) fromText.clear();
      made = createSecretKey(key, 'utf8');
      fromText.set(key, made);
    }
    return made;
  }
  let made = fromBytes.get(key);
  if (made === undefined) {
    made = createSecretKey(key);
    fromBytes.set(key, made);
  }
  return made;
}
