import type { CompiledField } from '../resources/compiled-types.js';
import type { RecordErrors } from '../validation/record-errors.js';

/** What a write does to one file field: the uploads it attaches, and which files it removes first. */
export interface FileChange {
  readonly field: CompiledField;
  /** Upload ids, in order: `file` attaches one (replacing the file), `files` appends each. */
  readonly attach: readonly string[];
  /** `all`: every file of the field; else the files named, each by its URL or its filename. */
  readonly remove: 'all' | readonly string[];
}

/** The key that lists the files of a `files` field to remove: `<write key>_remove`. */
export const removeKey = (field: CompiledField): string => `${field.writeKey}_remove`;

/** A `<field>_remove` list named as the panel stores it → the names as the client sent them. */
const sentNames = new WeakMap<readonly string[], readonly string[]>();

/**
 * A `<field>_remove` list with each name turned into the one the panel stores (`stored`, such as
 * an Edition B signed URL back to the standard URL), remembering what the client sent: a name
 * that matches no attached file is refused with the name as sent, so that the refusal never
 * discloses what the name was turned into.
 */
export function storedRemoveNames(sent: readonly string[], stored: (name: string) => string): string[] {
  const names = sent.map(stored);
  sentNames.set(names, sent);
  return names;
}

/** The `index`-th name of a `<field>_remove` list as the client sent it. */
export function sentRemoveName(names: readonly string[], index: number): string {
  return sentNames.get(names)?.[index] ?? names[index]!;
}

/** The most names `<field>_remove` lists. */
const MAX_REMOVED = 100;

/** Whether the write body has anything for this file field: its key, or (for `files`) its `_remove` key. */
export function namesFileField(field: CompiledField, attributes: Record<string, unknown>): boolean {
  return Object.hasOwn(attributes, field.writeKey) || (field.kind.attachments === 'many' && Object.hasOwn(attributes, removeKey(field)));
}

/**
 * Reads what a write body says of a file field (present under its key or its `_remove` key):
 * the change, with type mistakes and `required` added to `errors`. `file`: an upload id attaches
 * it in place of the file, null removes the file. `files`: a list of upload ids appends them,
 * null removes every file, and `<name>_remove` removes the files it names (by URL or filename).
 */
export function readFileChange(field: CompiledField, attributes: Record<string, unknown>, errors: RecordErrors): FileChange | undefined {
  const many = field.kind.attachments === 'many';
  let attach: readonly string[] = [];
  let remove: 'all' | string[] = many ? [] : 'all';
  if (Object.hasOwn(attributes, field.writeKey)) {
    const raw = attributes[field.writeKey];
    if (raw === null || raw === undefined) {
      if (field.required) {
        errors.add(field.name, "can't be blank");
        return undefined;
      }
      remove = 'all';
    } else {
      const parsed = field.kind.parse!(raw, field);
      if (!parsed.ok) {
        errors.add(field.name, parsed.message);
        return undefined;
      }
      attach = parsed.value as string[];
    }
  }
  if (many && Object.hasOwn(attributes, removeKey(field)) && remove !== 'all') {
    const names = attributes[removeKey(field)];
    if (!Array.isArray(names) || names.length > MAX_REMOVED || names.some((name) => typeof name !== 'string' || name === '' || name.length > 2048)) {
      errors.add(field.name, `has an invalid ${removeKey(field)}: send a list of at most ${MAX_REMOVED} URLs or filenames of attached files`);
      return undefined;
    }
    remove = names;
  }
  return { field, attach, remove };
}
