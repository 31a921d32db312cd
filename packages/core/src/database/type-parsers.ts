/**
 * How column values come back from either driver, so that PGlite and PostgreSQL give the API
 * the same JavaScript values: `numeric` and `int8` as numbers (an `int8` past 2^53, which a
 * number cannot hold, as its exact digits: a `bigint` key is never rounded onto another
 * record's), `date` as the `YYYY-MM-DD` string (never a Date at local midnight), `timestamptz`
 * as a Date.
 */
export const TYPE_OIDS = Object.freeze({ int8: 20, numeric: 1700, date: 1082 });

const toNumber = (value: string) => Number(value);
const asText = (value: string) => value;
const int8 = (value: string) => {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
};

/** Parsers keyed by type OID, in the shape both PGlite's `parsers` option and pg's `types` accept. */
export const PANEL_TYPE_PARSERS: Readonly<Record<number, (value: string) => unknown>> = Object.freeze({
  [TYPE_OIDS.int8]: int8,
  [TYPE_OIDS.numeric]: toNumber,
  [TYPE_OIDS.date]: asText,
});
