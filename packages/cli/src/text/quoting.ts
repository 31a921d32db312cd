/**
 * Quoting for text panel-api writes into generated code and prints as commands: a name read
 * from a database or typed by a person is never pasted as it is.
 */

/** A JSON string literal that is also safe in a line comment (U+2028 and U+2029 escaped: they end one). */
export function jsonString(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A single-quoted TypeScript / JavaScript string literal of `text` (`o'brien` → `'o\'brien'`). */
export function codeString(text: string): string {
  return `'${jsonString(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** `text` as one argument of a POSIX shell: as it is when plain, else in single quotes (`docs/api v1.json` → `'docs/api v1.json'`). */
export function shellArgument(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
