import { describe, expect, it } from 'vitest';
import { RevealStore } from './reveal-store.js';

describe('RevealStore: the one-time reveal of a new token\'s secret', () => {
  it('gives the secret once, to the creating session only; another session does not use it up', () => {
    const store = new RevealStore();
    store.hold(7, 'pat_secret', 'session-a');
    expect(store.take(7, 'session-b')).toBeUndefined();
    expect(store.take(7, '')).toBeUndefined();
    expect(store.take(7, 'session-a')).toBe('pat_secret');
    expect(store.take(7, 'session-a')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('forgets a secret after its time, whether or not it was looked at', () => {
    let now = 1_000;
    const store = new RevealStore(60_000, () => now);
    store.hold(1, 'pat_one', 'a');
    store.hold(2, 'pat_two', 'a');
    now += 60_000;
    expect(store.take(1, 'a')).toBeUndefined();
    expect(store.size).toBe(0);
  });
});
