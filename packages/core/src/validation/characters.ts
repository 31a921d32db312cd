/**
 * How many characters `text` holds, as Panel counts them wherever a limit is said in characters
 * (a field's `minLength`/`maxLength`, a batch operation's `ref`): Unicode code points, so an emoji
 * is one character, not the two UTF-16 code units of `text.length`.
 *
 * @example
 * characters('😀é'); // 2
 */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
