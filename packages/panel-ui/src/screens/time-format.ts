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
  const parts = LOCAL_DATE_TIME.exec(value);
  if (!parts) return undefined;
  const date = new Date(`${value}Z`);
  if (Number.isNaN(date.getTime())) return undefined;
  // Date's parser rolls a day the month does not have over (2040-02-30 → 2040-03-01): the
  // moment must read back as typed, or the user would get an expiry they did not type.
  const [, year, month, day] = parts;
  const typed = `${year}-${month}-${day}`;
  return date.toISOString().slice(0, 10) === typed ? date : undefined;
}
