// "timestamptz … answered in UTC (`2026-11-22T10:40:10.397Z`)": a datetime field answers exactly
// what `toISOString` writes, whichever way the text is made (`isoDatetime`).
import { describe, expect, it } from 'vitest';
import { isoDatetime } from './datetime-field.js';

const EDGES = [
  '1000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2000-02-29T12:05:09.007Z',
  '2026-11-22T10:40:10.397Z', '2026-12-31T23:59:59.990Z', '9999-12-31T23:59:59.999Z',
  // Outside 1000–9999: left to toISOString (padded, or signed with six digits).
  '0999-12-31T23:59:59.999Z', '0001-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '-000001-06-15T08:00:00.050Z',
];

describe('isoDatetime: the text toISOString writes', () => {
  it('at the edges of the calendar, the day and the millisecond', () => {
    for (const text of EDGES) expect(isoDatetime(new Date(text))).toBe(text);
  });

  it('for 20,000 instants spread over 1000–9999 and every millisecond value', () => {
    const first = Date.UTC(1000, 0, 1);
    const span = Date.UTC(9999, 11, 31, 23, 59, 59, 999) - first;
    for (let i = 0; i < 20_000; i += 1) {
      const date = new Date(first + Math.floor((span * i) / 20_000) + (i % 1000));
      expect(isoDatetime(date)).toBe(date.toISOString());
    }
  });
});
