/**
 * A whole number from the environment variable `name` (its `fallback` when unset or empty),
 * within `min`–`max`; anything else prints one line naming the variable, the value and the fix on
 * standard error and exits 1, before the demo boots: `Number('abc')` is NaN, which would reach
 * `listen` as a port Node refuses with a stack, or `closeOnSignals` as a drain bound.
 *
 * @example
 * const port = wholeNumberFromEnv('PORT', 3000, { min: 0, max: 65535, fix: 'a port such as 3000' });
 * // PORT=abc: 'PORT must be a whole number from 0 to 65535, instead got "abc". Fix: set PORT to a port such as 3000, or unset it for 3000.', exit 1
 */
export function wholeNumberFromEnv(name: string, fallback: number, range: { readonly min: number; readonly max: number; readonly fix: string }, env: NodeJS.ProcessEnv = process.env): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (/^\d+$/.test(text.trim()) && Number.isSafeInteger(value) && value >= range.min && value <= range.max) return value;
  console.error(`${name} must be a whole number from ${range.min} to ${range.max}, instead got ${JSON.stringify(text)}. Fix: set ${name} to ${range.fix}, or unset it for ${fallback}.`);
  process.exit(1);
}
