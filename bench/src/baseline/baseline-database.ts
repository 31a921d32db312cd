import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { NamedStatementsClient } from './named-statements-client.js';

/** The tables the baseline reads and writes, as Kysely types them. */
export interface BaselineTables {
  users: { id: number; name: string; email: string; admin: boolean; created_at: Date };
  blog_posts: {
    id: number;
    title: string;
    summary: string | null;
    body: string | null;
    published: boolean;
    published_on: string | null;
    view_count: number;
    rating: number | null;
    author_id: number | null;
    created_at: Date;
  };
  comments: { id: number; body: string; blog_post_id: number; user_id: number | null; created_at: Date };
  blog_posts_tags: { blog_post_id: number; tag_id: number };
  panel_blobs: { id: number; key: string; filename: string; content_type: string; byte_size: number; checksum: string; created_at: Date };
  panel_attachments: { id: number; record_type: string; record_id: number; name: string; blob_id: number; position: number; created_at: Date };
}

/** The baseline's database: Kysely over a plain `pg.Pool`, and the statements it ran for whoever listens. */
export interface BaselineDatabase {
  readonly db: Kysely<BaselineTables>;
  onQuery(listener: (event: LogEvent) => void): () => void;
  /** The type parsers of its pool, for another pool that should read values alike. */
  readonly types: { getTypeParser: typeof pg.types.getTypeParser };
}

/**
 * Opens the pool as a developer sets one up by hand: the schema on the search path,
 * `numeric`, `int8` and `date` parsed the way the JSON should show them, and statements with
 * parameters sent named (prepared, `NamedStatementsClient`), as the API sends them.
 */
export function openBaselineDatabase(url: string, schema: string): BaselineDatabase {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === pg.types.builtins.NUMERIC || oid === pg.types.builtins.INT8) return (value: string) => Number(value);
      if (oid === pg.types.builtins.DATE) return (value: string) => value;
      return pg.types.getTypeParser(oid, format ?? 'text');
    }) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ Client: NamedStatementsClient, connectionString: url, max: 10, options: `-c search_path=${schema}`, types });
  const listeners = new Set<(event: LogEvent) => void>();
  const db = new Kysely<BaselineTables>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      for (const listener of listeners) listener(event);
    },
  });
  return {
    db,
    types,
    onQuery(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
