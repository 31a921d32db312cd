/**
 * A position in PostgreSQL's write-ahead log (a `pg_lsn`, written `16/B374D848`) as a bigint,
 * so that positions compare with `<` and `>=`.
 */
export type WalPosition = bigint;

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position of a `pg_lsn` text (`16/B374D848`), or undefined when the text is not one. */
export function parseWalPosition(text: unknown): WalPosition | undefined {
  if (typeof text !== 'string') return undefined;
  const match = LSN.exec(text.trim());
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The `pg_lsn` text of a position (`16/B374D848`), as PostgreSQL writes it. */
export function formatWalPosition(position: WalPosition): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

const PAGE = 8192n;
const SHORT_HEADER = 24n;
const LONG_HEADER = 40n;
const DEFAULT_SEGMENT = 16n * 1024n * 1024n;

/**
 * The end of the last record before `position` when `position` is the primary's insert
 * position just after a page header (`pg_current_wal_insert_lsn()` points past the header of
 * a page no record has reached yet, while a replica's `pg_last_wal_replay_lsn()` is the end of
 * the last record it replayed). Without this, an idle primary whose last record ended on a page
 * boundary (as after `pg_basebackup`'s segment switch) would look ahead of a replica that has
 * everything. No record ends right after a short page header (24 bytes), so that case is exact;
 * the long header (40 bytes) opens each segment, taken here at the default 16 MB segments.
 * `sample` says the position is a lag sample (both cases); a read-after token uses only the
 * exact one, so it is never lowered below a record's end.
 */
export function lastRecordEnd(position: WalPosition, sample: boolean): WalPosition {
  if (position % PAGE === SHORT_HEADER) return position - SHORT_HEADER;
  if (sample && position % DEFAULT_SEGMENT === LONG_HEADER) return position - LONG_HEADER;
  return position;
}
