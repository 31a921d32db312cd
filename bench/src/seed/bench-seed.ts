import { sql } from 'kysely';
import { openDatabase, runMigrations, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { migrations } from '@panel/example-blog/src/build-app.js';
import { DATASET, MIX_KEY_PREFIX, MIX_USERS, type Dataset } from './dataset.js';

/** What `ensureBenchSeed` did. */
export interface SeedOutcome {
  readonly reused: boolean;
  readonly seconds: number;
}

/** The marker a complete seed leaves; a schema without it (or with another data set) is seeded anew. */
const MARKER_TABLE = 'bench_seed';

/** Bumped whenever the seed's SQL or the demo's migrations change, so that an older seed is not reused. */
const SEED_VERSION = 3;

const fingerprint = (dataset: Dataset): string => JSON.stringify({ version: SEED_VERSION, ...dataset });

async function markerMatches(database: PanelDatabase, dataset: Dataset): Promise<boolean> {
  const { rows } = await sql<{ fingerprint: string }>`select fingerprint from ${sql.table(MARKER_TABLE)}`.execute(database.db).catch(() => ({ rows: [] }));
  return rows[0]?.fingerprint === fingerprint(dataset);
}

/**
 * Fills the demo's tables with set-based SQL (`generate_series`), one statement per table:
 * users (user 1 is the admin of `demo-admin-key`, user 2 the reader of `demo-reader-key`; among
 * the mix's 200 users, one in twenty is an admin), the API keys (`bench_api_keys`: the digest
 * of each key and its user),
 * a profile for every other user, posts spread over the users, comments spread evenly over
 * the posts, and on every tenth post a cover and two attachments (blob and attachment rows;
 * the bytes are not stored, an index or a show never reads them).
 */
async function insertRows(database: PanelDatabase, d: Dataset): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    // Foreign-key triggers off for the load: every reference below is in range by construction.
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`insert into users (id, name, email, admin, created_at)
      select i, case i when 1 then 'Ada Admin' when 2 then 'Rita Reader' else 'User ' || i end,
             'user' || i || '@example.com', i <= ${sql.lit(MIX_USERS)} and i % 20 = 1, timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute'
      from generate_series(1, ${sql.lit(d.users)}) as i`.execute(trx);
    await sql`create table bench_api_keys (digest bytea primary key, user_id integer not null references users (id))`.execute(trx);
    await sql`insert into bench_api_keys (digest, user_id)
      select sha256(convert_to(key, 'UTF8')), user_id from (values ('demo-admin-key', 1), ('demo-reader-key', 2)) as demo (key, user_id)
      union all
      select sha256(convert_to(${MIX_KEY_PREFIX} || u, 'UTF8')), u from generate_series(1, ${sql.lit(MIX_USERS)}) as u`.execute(trx);
    await sql`insert into profiles (id, bio, user_id)
      select i, 'The profile of user ' || (2 * i - 1) || '.', 2 * i - 1 from generate_series(1, ${Math.floor((d.users + 1) / 2)}) as i`.execute(trx);
    await sql`insert into blog_posts (id, title, body, published, published_on, view_count, rating, author_id, created_at)
      select i,
             'Post ' || i || ': ' || (array['Gardens', 'Games', 'Kitchens', 'Trains', 'Rivers'])[1 + i % 5],
             repeat('The body of post ' || i || '. ', 12),
             i % 5 <> 0,
             case when i % 5 <> 0 then date '2020-01-01' + i % 2000 end,
             (i::bigint * 7919) % 100003,
             round((1 + (i * 37 % 40) / 10.0)::numeric, 2),
             1 + i % ${sql.lit(d.users)},
             timestamptz '2020-01-01 00:00:00+00' + i * interval '17 minutes'
      from generate_series(1, ${sql.lit(d.posts)}) as i`.execute(trx);
    // 48271 is prime to the number of posts, so every post gets comments / posts comments.
    await sql`insert into comments (id, body, blog_post_id, user_id, created_at)
      select c, 'Comment ' || c || '.', 1 + (c::bigint * 48271) % ${sql.lit(d.posts)}, 1 + c % ${sql.lit(d.users)},
             timestamptz '2021-01-01 00:00:00+00' + c * interval '1 minute'
      from generate_series(1, ${sql.lit(d.comments)}) as c`.execute(trx);
    await sql`insert into panel_blobs (id, key, filename, content_type, byte_size, checksum, created_at)
      select 3 * (p / ${sql.lit(d.filesEvery)}) - 2 + k,
             md5('panel-bench/' || p || '/' || k),
             case k when 0 then 'cover-' || p || '.png' when 1 then 'notes-' || p || '.txt' else 'sketch ' || p || ' – draft.png' end,
             case k when 1 then 'text/plain; charset=utf-8' else 'image/png' end,
             1000 + (p * 13 + k * 7) % 50000,
             'AAAAAAAAAAAAAAAAAAAAAA==',
             timestamptz '2022-01-01 00:00:00+00'
      from generate_series(${sql.lit(d.filesEvery)}, ${sql.lit(d.posts)}, ${sql.lit(d.filesEvery)}) as p, generate_series(0, 2) as k`.execute(trx);
    await sql`insert into panel_attachments (id, record_type, record_id, name, blob_id, position, created_at)
      select 3 * (p / ${sql.lit(d.filesEvery)}) - 2 + k, 'BlogPost', p, case k when 0 then 'cover' else 'attachments' end,
             3 * (p / ${sql.lit(d.filesEvery)}) - 2 + k, case k when 2 then 1 else 0 end, timestamptz '2022-01-01 00:00:00+00'
      from generate_series(${sql.lit(d.filesEvery)}, ${sql.lit(d.posts)}, ${sql.lit(d.filesEvery)}) as p, generate_series(0, 2) as k`.execute(trx);
    // The index a deployment of this size gives the resource's default order (created_at desc);
    // the demo's migration has none, and without it every page 1 sorts the whole table.
    await sql`create index blog_posts_created_at_id_index on blog_posts (created_at, id)`.execute(trx);
    for (const table of ['users', 'profiles', 'blog_posts', 'comments', 'panel_blobs', 'panel_attachments']) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(trx);
    }
    await sql`create table ${sql.table(MARKER_TABLE)} (fingerprint text not null)`.execute(trx);
    await sql`insert into ${sql.table(MARKER_TABLE)} values (${fingerprint(d)})`.execute(trx);
  });
}

/** Sets the visibility map and the planner's statistics, as a database that autovacuum has caught up with. */
export async function vacuumAnalyze(database: PanelDatabase, tables: readonly string[] = ['users', 'profiles', 'blog_posts', 'comments', 'panel_blobs', 'panel_attachments']): Promise<void> {
  for (const table of tables) await sql`vacuum (analyze) ${sql.table(table)}`.execute(database.db);
}

/**
 * One connection to the bench schema for seeding and putting the data back, without the
 * statement timeout (the comments' insert and the indexes take longer than its 10 s default).
 */
export function openSeedDatabase(url: string, schema: string): Promise<PanelDatabase> {
  return openDatabase({ url, schema, maxConnections: 1, statementTimeoutMillis: 0 });
}

/**
 * Makes sure the bench schema holds the data set: reused when a previous run left it complete,
 * otherwise the schema is dropped, migrated with the demo's migrations and filled.
 */
export async function ensureBenchSeed(url: string, schema: string, dataset: Dataset = DATASET): Promise<SeedOutcome> {
  const started = performance.now();
  // No timeout: a seed of millions of rows runs for minutes.
  const database = await openSeedDatabase(url, schema);
  try {
    if (await markerMatches(database, dataset)) return { reused: true, seconds: (performance.now() - started) / 1000 };
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    await sql`create schema ${sql.id(schema)}`.execute(database.db);
    await runPanelMigrations(database);
    await runMigrations(database, migrations);
    await insertRows(database, dataset);
    await vacuumAnalyze(database);
    return { reused: false, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

/**
 * Puts the tables back as the seed left them, so that every run measures the same data: the
 * posts created by an earlier run's `create` are removed and the posts it patched (ids up to
 * `patchedUpTo`, default the update endpoint's) restored.
 *
 * `ids`: `forward` (between timed rounds) only moves the id sequence forward, back to the
 * seed's last id only once it has climbed 500,000 past it: a create still in flight when a
 * round ends commits after this reset, and its id must not come round again (a round would
 * then meet it as a duplicate key, a 422 "base has already been taken" counted as an error).
 * `restart` (before the answer checks, which send the same creates to each server in turn and
 * compare the lists that show them) restarts it at the seed's last id, so that both servers
 * give their posts the same ids; the table's lock waits for any create still in flight.
 */
export async function resetBenchWrites(
  url: string,
  schema: string,
  dataset: Dataset = DATASET,
  patchedUpTo: number = dataset.patchedPosts,
  ids: 'forward' | 'restart' = 'forward',
): Promise<void> {
  const database = await openSeedDatabase(url, schema);
  try {
    await database.db.transaction().execute(async (trx) => {
      if (ids === 'restart') await sql`lock table blog_posts in exclusive mode`.execute(trx);
      await sql`delete from blog_posts where id > ${dataset.posts}`.execute(trx);
      await sql`update blog_posts set title = 'Post ' || id || ': ' || (array['Gardens', 'Games', 'Kitchens', 'Trains', 'Rivers'])[1 + id % 5], view_count = (id * 7919) % 100003
        where id <= ${Math.max(patchedUpTo, dataset.patchedPosts)} and (title <> 'Post ' || id || ': ' || (array['Gardens', 'Games', 'Kitchens', 'Trains', 'Rivers'])[1 + id % 5] or view_count <> (id * 7919) % 100003)`.execute(trx);
      const next = ids === 'restart' ? sql`${dataset.posts}` : sql`case when last_value > ${dataset.posts + 500_000} then ${dataset.posts} else greatest(last_value, ${dataset.posts}) end`;
      await sql`select setval(pg_get_serial_sequence('blog_posts', 'id'), ${next}) from blog_posts_id_seq`.execute(trx);
    });
    await vacuumAnalyze(database, ['blog_posts']);
  } finally {
    await database.close();
  }
}
