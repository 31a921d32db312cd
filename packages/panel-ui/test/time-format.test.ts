import { describe, expect, it } from 'vitest';
import { formatUtc, parseUtcDateTime } from '../src/screens/time-format.js';

// The token screens' expiry field is a `datetime-local` read as UTC ("the label says so"): the
// moment a user types is the moment stored, or the form says it is not a date and time.

describe('parseUtcDateTime', () => {
  it('reads what a datetime-local field sends, with or without seconds, as UTC', () => {
    expect(parseUtcDateTime('2040-02-29T10:05')?.toISOString()).toBe('2040-02-29T10:05:00.000Z');
    expect(parseUtcDateTime(' 2040-12-31T23:59:59 ')?.toISOString()).toBe('2040-12-31T23:59:59.000Z');
  });

  it('is null for an empty field (no expiry) and undefined for anything the field does not produce', () => {
    expect(parseUtcDateTime('')).toBeNull();
    expect(parseUtcDateTime('   ')).toBeNull();
    for (const text of ['2040-01-01', '2040-01-01 10:00', '2040-01-01T10:00Z', '2040-01-01T10:00+02:00', '40-01-01T10:00', 'tomorrow', '2040-13-01T10:00', '2040-01-01T25:00', '2040-01-01T10:60']) {
      expect(parseUtcDateTime(text), text).toBeUndefined();
    }
  });

  it('refuses a day the month does not have instead of rolling it over, and 24:00 instead of moving to the next day', () => {
    expect(parseUtcDateTime('2041-02-29T10:00')).toBeUndefined();
    expect(parseUtcDateTime('2040-04-31T10:00')).toBeUndefined();
    expect(parseUtcDateTime('2040-01-01T24:00')).toBeUndefined();
  });
});

describe('formatUtc', () => {
  it('shows a moment to the minute with its zone, and the given word when there is none', () => {
    expect(formatUtc(new Date('2026-11-22T20:45:59.999Z'), 'never')).toBe('2026-11-22 20:45 UTC');
    expect(formatUtc(null, 'never')).toBe('never');
  });

  it('reads back what parseUtcDateTime read', () => {
    expect(formatUtc(parseUtcDateTime('2040-06-15T08:30') ?? null, '')).toBe('2040-06-15 08:30 UTC');
  });
});
