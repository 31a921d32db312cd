import pg from 'pg';
import type { ServerProcess } from '../servers/server-process.js';
import { requestCensus } from '../census/request-census.js';

const PAGES = [
  '/api/resources/v1/blog_posts',
  '/api/resources/v1/blog_posts?page=2000',
  '/api/resources/v1/blog_posts?sort_by=view_count&sort_direction=desc',
  // The filtered pages (docs/querying.md), with the indexes the querying page recommends.
  '/api/resources/v1/blog_posts?filter[published]=true&filter[author_id]=42',
  '/api/resources/v1/blog_posts?q=gardens',
  '/api/resources/v1/blog_posts?filter[published_on][gte]=2024-03-01&sort_by=view_count',
];

/** The plan's first lines and its timing, indented. */
function summary(plan: string[]): string {
  const nodes = plan.filter((line) => /->|^\S/.test(line) && !/^(Planning|Execution)/.test(line.trim())).slice(0, 6);
  const timing = plan.filter((line) => /^(Planning|Execution) Time/.test(line.trim()));
  return [...nodes, ...timing].map((line) => `      ${line.trimEnd()}`).join('\n');
}

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of every statement an index request runs, for both servers:
 * the statements come from a census (so they are exactly what each server sends), and are
 * explained on one connection with the bench schema on the search path.
 */
export async function explainIndexStatements(url: string, schema: string, api: ServerProcess, baseline: ServerProcess): Promise<string> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  const out: string[] = [];
  try {
    for (const path of PAGES) {
      for (const server of [api, baseline]) {
        const { sql } = await requestCensus(server, { method: 'GET', path });
        out.push(`${server.kind} GET ${path}`);
        for (const statement of sql) {
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${statement.sql}`, statement.parameters as unknown[]);
          out.push(`   ${statement.sql.slice(0, 140)}${statement.sql.length > 140 ? '…' : ''}`, summary(rows.map((row) => row['QUERY PLAN'])));
        }
      }
    }
  } finally {
    await client.end();
  }
  return out.join('\n');
}
