import type { RecordKey } from '@panel/core';

/**
 * How a text input asks for a record's id (a `belongs_to` whose target the user may not list, a
 * filter on one): a numeric keyboard only where the target's key is a number, and a hint that
 * names the key's form (a UUID, a text code) as the API's 400 would.
 */
export function recordKeyInput(key: RecordKey): { readonly inputmode: 'numeric' | undefined; readonly hint: string } {
  return { inputmode: key.type === 'integer' || key.type === 'bigint' ? 'numeric' : undefined, hint: `The id of the record: ${key.expected}.` };
}
