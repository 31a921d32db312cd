import { MAX_RECORD_ID, type CompiledResource } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';

/**
 * The attributes of a write body `{ <singular_key>: { ... } }`. A body without that key, or
 * with something other than an object under it, is a 400 naming the key.
 */
export function recordParams(resource: CompiledResource, body: unknown): Record<string, unknown> {
  const key = resource.naming.singularKey;
  const attributes = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[key] : undefined;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    throw new BadRequestError(`param is missing or the value is not an object: ${key} (send { "${key}": { ... } })`);
  }
  return attributes as Record<string, unknown>;
}

/** The `:id` path parameter as a record id, or undefined when it cannot name a record (then 404). */
export function recordId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= MAX_RECORD_ID ? id : undefined;
}
