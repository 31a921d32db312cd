import { describe, expect, it } from 'vitest';
import { formatUtc, parseUtcDateTime } from './time-format.js';

describe('the expiry field, read as UTC', () => {
  it('reads what a datetime-local field posts, empty as "never", and nothing else', () => {
    expect(parseUtcDateTime('')).toBeNull();
    expect(parseUtcDateTime('2027-01-31T09:30')?.toISOString()).toBe('2027-01-31T09:30:00.000Z');
    expect(parseUtcDateTime('2027-01-31T09:30:15')?.toISOString()).toBe('2027-01-31T09:30:15.000Z');
    for (const bad of ['tomorrow', '2027-01-31', '2027-13-01T00:00', '2027-01-31T09:30Z', '2027-01-31T09:30+02:00']) expect(parseUtcDateTime(bad), bad).toBeUndefined();
  });

  it('shows a moment to the minute, in UTC', () => {
    expect(formatUtc(new Date('2027-01-31T09:30:59Z'), 'never')).toBe('2027-01-31 09:30 UTC');
    expect(formatUtc(null, 'never')).toBe('never');
  });
});
