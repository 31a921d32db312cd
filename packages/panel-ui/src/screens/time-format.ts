/** A moment as the screens show it: `2026-11-22 20:45 UTC`. */
export function formatUtc(date: Date | null, none: string): string {
  return date === null ? none : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The expiry typed in the form's `datetime-local` field, read as UTC (the label says so):
 * null when empty, undefined when it is not a date-time the field produces.
 */
export function parseUtcDateTime(text: string): Date | null | undefined {
  const value = text.trim();
  if (value === '') return null;
  if (!LOCAL_DATE_TIME.test(value)) return undefined;
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
