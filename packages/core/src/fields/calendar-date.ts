const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether a string is a real `YYYY-MM-DD` calendar date from year 1 (February 30 is not; the
 * years 1–99 are).
 */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, unlike Date.UTC, keeps the years 0–99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
