/** `npm run bench -- --prepared-statements`: the API's servers open the database with named (prepared) statements; the reference servers never do. */
export function preparedStatementsOption(): { preparedStatements?: true } {
  return process.env.BENCH_PREPARED_STATEMENTS === '1' ? { preparedStatements: true } : {};
}
