import { removeKey, storedRemoveNames, type CompiledResource } from '@panel/core';
import type { RequestActor } from '../controller/request-gate.js';

/**
 * A write's attributes with the files its `<field>_remove` lists named as the panel stores them
 * (`RequestActor.storedFileName`: a token's signed URL back to the standard URL, which core
 * matches by its key), so that an actor removes a file by the URL it was given; a name that
 * matches no file is refused as it was sent (`storedRemoveNames`). Anything else,
 * and a list that is not strings (core refuses it with the field's message), is left as sent.
 */
export function withStoredFileNames(actor: RequestActor, resource: CompiledResource, attributes: Record<string, unknown>): Record<string, unknown> {
  const stored = actor.storedFileName;
  if (stored === undefined) return attributes;
  let named: Record<string, unknown> | undefined;
  for (const field of resource.fields) {
    if (field.kind.attachments !== 'many') continue;
    const key = removeKey(field);
    const names = attributes[key];
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) continue;
    named ??= { ...attributes };
    named[key] = storedRemoveNames(names as string[], stored);
  }
  return named ?? attributes;
}
