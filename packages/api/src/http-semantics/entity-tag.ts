import { createHash } from 'node:crypto';

/** The query of a signed file URL (Edition B): its expiry and signature rotate with every answer. */
const SIGNED_URL_QUERY = /\?expires=\d+&signature=[A-Za-z0-9_-]+$/;

// A signed file URL's rotating query is no part of the content: the path (blob key, file name) is.
const withoutSignatures = (_key: string, value: unknown) => (typeof value === 'string' && SIGNED_URL_QUERY.test(value) ? value.replace(SIGNED_URL_QUERY, '') : value);

/**
 * The strong ETag of an answer's JSON body: `"<base64url of the first 18 bytes of SHA-256>"`
 * over the body as `JSON.stringify` writes it, with the `?expires=…&signature=…` query of every
 * signed file URL left out. So it changes exactly when what the actor reads changes (a field's
 * value, a file replaced, a field the actor may now read or not), never because a signed URL
 * was signed again.
 *
 * @example
 * entityTag({ record: { id: 1, title: 'Hello' } }); // '"q3c…"'
 */
export function entityTag(body: unknown): string {
  return tagOfJson(JSON.stringify(body, withoutSignatures) ?? '');
}

/** A signed file URL's rotating query as it ends a string in serialized JSON (before the closing quote). */
const SIGNED_URL_QUERY_IN_JSON = /\?expires=\d+&signature=[A-Za-z0-9_-]+(?=")/g;

/**
 * The ETag of a body already serialized to JSON (the answer's payload as sent): the same value
 * `entityTag` gives for the body it was serialized from, without serializing it again. A
 * signed URL's query ends a JSON string just before its closing quote (its characters need no
 * escaping), so it is left out exactly as `entityTag` leaves it out of the value.
 */
export function entityTagOfJson(json: string): string {
  return tagOfJson(json.includes('&signature=') ? json.replace(SIGNED_URL_QUERY_IN_JSON, '') : json);
}

function tagOfJson(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 24)}"`;
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
