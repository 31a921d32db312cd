/**
 * `npm run bench -- --unnamed-statements`: the API's servers open the database with
 * `preparedStatements: false`, as an app behind a transaction-mode pooler; by default they
 * prepare, as any app on a direct connection does. The reference servers (hand-written and
 * limit) follow the same setting (`baseline/named-statements-client.ts`).
 */
export function preparedStatementsOption(): { preparedStatements?: false } {
  return process.env.BENCH_UNNAMED_STATEMENTS === '1' ? { preparedStatements: false } : {};
}
