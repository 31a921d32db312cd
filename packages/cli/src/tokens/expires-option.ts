import { TokenCommandError } from './token-command-error.js';

const UNIT_MILLIS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * The expiry `--expires` names: a duration from `now` (`90m`, `12h`, `30d`, `2w`) or an ISO 8601
 * date or UTC date and time (`2027-01-31`, `2027-01-31T12:00:00Z`). Like the panel's new-token
 * screen, it must be in the future.
 *
 * @example
 * parseExpires('30d', new Date('2026-11-25T00:00:00Z')) // 2026-12-25T00:00:00.000Z
 */
export function parseExpires(text: string, now: Date): Date {
  const duration = /^([1-9]\d{0,5})([mhdw])$/.exec(text.trim());
  let at: Date;
  if (duration) at = new Date(now.getTime() + Number(duration[1]) * UNIT_MILLIS[duration[2]!]!);
  else if (/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/.test(text.trim())) at = new Date(text.trim());
  else {
    throw new TokenCommandError(`--expires must be a duration such as 30d, 12h, 90m or 2w, or a date such as 2027-01-31 (or 2027-01-31T12:00:00Z), instead got "${text}".`);
  }
  if (Number.isNaN(at.getTime())) throw new TokenCommandError(`--expires names no real date: "${text}".`);
  if (at.getTime() <= now.getTime()) throw new TokenCommandError(`--expires must be in the future, instead got "${text}" (${at.toISOString()}).`);
  return at;
}

/** `--grant` values (repeated, each comma-separated) as one list of `<route_key>:<verb>`. */
export function grantList(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',')).map((grant) => grant.trim()).filter((grant) => grant !== '');
}
