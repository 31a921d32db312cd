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
