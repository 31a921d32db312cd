import { PanelConfigError } from '../errors/panel-errors.js';
import { MAX_RECORD_ID } from '../fields/max-record-id.js';
import { textProblem } from '../validation/text-problem.js';

/** The PostgreSQL types a resource's single-column primary key may have. */
export const RECORD_KEY_TYPES = ['integer', 'bigint', 'uuid', 'text'] as const;
export type RecordKeyType = (typeof RECORD_KEY_TYPES)[number];

/**
 * A record's id as the records layer passes it: a number for an `integer` key; a string for a
 * `bigint` key (its canonical decimal form: JavaScript numbers cannot hold every bigint), a
 * `uuid` (lower case) or a `text` key.
 */
export type RecordId = number | string;

/** The longest text key a URL or a body may name. */
export const MAX_TEXT_KEY_LENGTH = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BIGINT = /^(?:0|-?[1-9]\d{0,18})$/;
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/** A resource's primary key: its column, its type, how a URL or a body names one record. */
export interface RecordKey {
  readonly column: string;
  readonly type: RecordKeyType;
  /** The id a URL segment or a filter's text names, or undefined when it can name no record (a 404, a 400). */
  fromText(raw: unknown): RecordId | undefined;
  /** The id a JSON value names (a body's `id`, a `belongs_to` write), or undefined. */
  fromJson(value: unknown): RecordId | undefined;
  /**
   * Whether a JSON value has the id's form but is past what the column holds (`2147483648` for
   * an `integer` key, more than 19 digits for a `bigint` one, a text over the longest): it names
   * no record, as the same id in a URL answers 404 (a batch operation's 404, not a 400).
   */
  beyondRange(value: unknown): boolean;
  /** The id as the API answers it (a `bigint` as a string, whatever the driver returned). */
  toJson(value: unknown): unknown;
  /** What the text or JSON value must be, for a 400's message. */
  readonly expected: string;
  /** The JSON Schema of the id, as the API reads and answers it. */
  readonly schema: { readonly [keyword: string]: unknown };
  /** The SQL type a bound id is cast to. */
  readonly cast: string;
}

function integerKey(column: string): RecordKey {
  const fromJson = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_RECORD_ID ? value : undefined);
  return {
    column,
    type: 'integer',
    fromText: (raw) => (typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw) ? fromJson(Number(raw)) : undefined),
    fromJson,
    beyondRange: (value) => typeof value === 'number' && Number.isInteger(value) && value > MAX_RECORD_ID,
    toJson: (value) => value,
    expected: 'a positive integer',
    schema: { type: 'integer', minimum: 1 },
    cast: 'bigint',
  };
}

function bigintKey(column: string): RecordKey {
  const fromText = (raw: unknown) => (typeof raw === 'string' && BIGINT.test(raw) && BigInt(raw) >= BIGINT_MIN && BigInt(raw) <= BIGINT_MAX ? raw : undefined);
  return {
    column,
    type: 'bigint',
    fromText,
    fromJson: (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : fromText(value)),
    beyondRange: (value) => typeof value === 'string' && /^-?[1-9]\d*$/.test(value) && fromText(value) === undefined,
    toJson: (value) => (value === null || value === undefined ? value : String(value)),
    expected: 'a whole number (a string of digits for a bigint key)',
    schema: { type: 'string', pattern: '^(0|-?[1-9][0-9]{0,18})$', example: '9007199254740993' },
    cast: 'bigint',
  };
}

function uuidKey(column: string): RecordKey {
  const fromText = (raw: unknown) => (typeof raw === 'string' && UUID.test(raw) ? raw.toLowerCase() : undefined);
  return { column, type: 'uuid', fromText, fromJson: fromText, beyondRange: () => false, toJson: (value) => value, expected: 'a UUID', schema: { type: 'string', format: 'uuid' }, cast: 'uuid' };
}

function textKey(column: string): RecordKey {
  const fromText = (raw: unknown) => (typeof raw === 'string' && raw.length > 0 && raw.length <= MAX_TEXT_KEY_LENGTH && textProblem(raw) === undefined ? raw : undefined);
  return {
    column,
    type: 'text',
    fromText,
    fromJson: fromText,
    beyondRange: (value) => typeof value === 'string' && value.length > MAX_TEXT_KEY_LENGTH && textProblem(value) === undefined,
    toJson: (value) => value,
    expected: `a non-empty text of at most ${MAX_TEXT_KEY_LENGTH} characters`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_TEXT_KEY_LENGTH },
    cast: 'text',
  };
}

const KEYS: Record<RecordKeyType, (column: string) => RecordKey> = { integer: integerKey, bigint: bigintKey, uuid: uuidKey, text: textKey };

/** The key a resource class declares (`static primaryKey`, `static primaryKeyType`), checked at boot. */
export function recordKeyOf(resource: string, column: unknown = 'id', type: unknown = 'integer'): RecordKey {
  const fix = `Fix: static primaryKey = 'film_id' (a column name) and static primaryKeyType = one of ${RECORD_KEY_TYPES.join(', ')}.`;
  if (typeof column !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(column)) {
    throw new PanelConfigError(`Resource ${resource}: static primaryKey must name one column, instead got ${JSON.stringify(column)}. ${fix}`);
  }
  if (typeof type !== 'string' || !(RECORD_KEY_TYPES as readonly string[]).includes(type)) {
    throw new PanelConfigError(`Resource ${resource}: static primaryKeyType must be one of ${RECORD_KEY_TYPES.join(', ')}, instead got ${JSON.stringify(type)}. ${fix}`);
  }
  return Object.freeze(KEYS[type as RecordKeyType](column));
}
