/** One statement as a query listener saw it: when it started and ended (ms, `performance.now()`). */
export interface TimedStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly start: number;
  readonly end: number;
  /** Sent in one write with the statement after it (Panel's held `begin`): no round trip of its own. */
  readonly withNext?: boolean;
}

/** How many statements a request ran, and in how many round trips (statements in flight together count once). */
export interface StatementCensus {
  readonly statements: number;
  readonly roundTrips: number;
  /** The statements in the order they started. */
  readonly sql: readonly { readonly sql: string; readonly parameters: readonly unknown[] }[];
}

/**
 * Counts the round trips of a request's statements: sorted by start, a statement that starts
 * after every earlier one has ended opens a new round trip; one that overlaps joins the current,
 * and one sent with the next (`withNext`) joins that one's.
 */
export function census(statements: readonly TimedStatement[]): StatementCensus {
  const sorted = [...statements].sort((a, b) => a.start - b.start);
  let roundTrips = 0;
  let openUntil = Number.NEGATIVE_INFINITY;
  for (const statement of sorted) {
    if (statement.withNext) continue;
    if (statement.start >= openUntil) roundTrips += 1;
    openUntil = Math.max(openUntil, statement.end);
  }
  return { statements: sorted.length, roundTrips, sql: sorted.map(({ sql, parameters }) => ({ sql, parameters })) };
}
