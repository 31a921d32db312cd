import * as crypto from 'node:crypto';

/**
 * The key under which a value presented differently on every answer (Edition B's signed file
 * URL, whose expiry and signature rotate) carries the form its ETag hashes instead: the file's
 * JSON with the URL as it was before it was signed. Set where the value is made
 * (`withEntityTagForm`), so no pattern over the answer's text decides what is content.
 * `Symbol.for`: a plug-in package that signs URLs needs no import of this module.
 */
export const ENTITY_TAG_FORM: unique symbol = Symbol.for('panel.entityTagForm');

/** A value as it is answered, whose ETag hashes `hashed` in its place (an object: JSON.stringify leaves the symbol out). */
export function withEntityTagForm<T extends object>(shown: T, hashed: unknown): T {
  return Object.assign(shown, { [ENTITY_TAG_FORM]: hashed });
}

// A value made with a form of its own is hashed as that form; every other value as it is.
const hashedForm = (_key: string, value: unknown) => (value !== null && typeof value === 'object' && ENTITY_TAG_FORM in value ? (value as { [ENTITY_TAG_FORM]: unknown })[ENTITY_TAG_FORM] : value);

/**
 * The strong ETag of an answer's JSON body: `"<base64url of the first 18 bytes of SHA-256>"`
 * over the body exactly as `JSON.stringify` writes it, except that a value carrying an
 * `ENTITY_TAG_FORM` (a signed file URL's object) counts as that form. So it changes exactly
 * when what the actor reads changes (a field's value, a file replaced, a field the actor may
 * now read or not), never because a signed URL was signed again.
 *
 * @example
 * entityTag({ record: { id: 1, title: 'Hello' } }); // '"q3c…"'
 */
export function entityTag(body: unknown): string {
  return tagOfJson(JSON.stringify(body, hashedForm) ?? '');
}

/**
 * The text every answer holding a value with an `ENTITY_TAG_FORM` contains (a signed URL's
 * query). It only picks how the tag is taken, never what it covers: an answer without it is
 * hashed from its bytes as sent, one with it from its body (`entityTag`), and both give the
 * same tag when no value has a form.
 */
export const FORM_HINT = '&signature=';

/**
 * The ETag of a body already serialized to JSON (the answer's payload as sent), over exactly
 * its bytes: the value `entityTag` gives for the body it was serialized from when no value of it
 * carries an `ENTITY_TAG_FORM`, without serializing it again.
 */
export function entityTagOfJson(json: string): string {
  return tagOfJson(json);
}

/** `entityTagOfJson` of the payload already encoded as UTF-8 (the bytes sent). */
export function entityTagOfBytes(json: Buffer): string {
  return tagOfJson(json);
}

// Node's one-shot `crypto.hash` (20.12 and later) costs about a third of `createHash`'s object, update and digest; 20.11 takes the latter.
const sha256 = typeof crypto.hash === 'function' ? (json: string | Buffer) => crypto.hash('sha256', json, 'base64url') : (json: string | Buffer) => crypto.createHash('sha256').update(json).digest('base64url');

function tagOfJson(json: string | Buffer): string {
  return `"${sha256(json).slice(0, 24)}"`;
}

/** The entity tags of an `If-Match` or `If-None-Match` value: `*`, or the list (weak ones keep their `W/`). */
export function parseEntityTags(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return '*';
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/**
 * `If-None-Match` holds for `tag` (RFC 9110 §13.1.2, weak comparison): `*`, or one of the
 * listed tags with or without `W/`.
 */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  const tags = parseEntityTags(header);
  if (tags === undefined) return false;
  return tags === '*' || tags.some((t) => t.replace(/^W\//, '') === tag);
}

/**
 * `If-Match` holds for `tag` (RFC 9110 §13.1.1, strong comparison): `*` (the record exists),
 * or one of the listed tags exactly; a weak tag never matches.
 */
export function ifMatchHolds(header: string, tag: string): boolean {
  const tags = parseEntityTags(header);
  return tags === '*' || tags?.includes(tag) === true;
}
