import type { ErrorMessages } from '../errors/panel-errors.js';

/**
 * The errors a validation collects: messages per field name, with `base` for messages about
 * the whole record (Rails' `errors.add`).
 */
export class RecordErrors {
  readonly #messages: ErrorMessages = {};

  constructor(initial: ErrorMessages = {}) {
    for (const [field, messages] of Object.entries(initial)) for (const message of messages) this.add(field, message);
  }

  /** Adds a message to a field (or to `base`); the same message is kept once. */
  add(field: string, message: string): void {
    const list = this.#messages[field] ?? [];
    this.#messages[field] = list;
    if (!list.includes(message)) list.push(message);
  }

  /** Whether the field (or any field, when none is named) has a message. */
  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.#messages).length > 0 : (this.#messages[field]?.length ?? 0) > 0;
  }

  /** The messages as the API answers them: a copy (each field's list too), so that adding more later changes nothing given out. */
  toJSON(): ErrorMessages {
    // Own properties, as structuredClone made them (a field named `__proto__` stays a field).
    return Object.fromEntries(Object.entries(this.#messages).map(([field, messages]) => [field, [...messages]]));
  }
}
