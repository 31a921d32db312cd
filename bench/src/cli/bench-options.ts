import { parseArgs } from 'node:util';

/** What one `npm run bench` run does. */
export interface BenchOptions {
  readonly url: string;
  readonly schema: string;
  /** Serving processes per server: 1, or the number of cores with `--cluster`. */
  readonly workers: number;
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Each endpoint's time is split into this many rounds, alternating which server goes first, so that both see the same background noise. */
  readonly rounds: number;
  /** Endpoint names to run (all when empty). */
  readonly only: readonly string[];
  /** Print `EXPLAIN (ANALYZE, BUFFERS)` of the index statements of both servers. */
  readonly explain: boolean;
  /** Print the SQL of each endpoint's census (`--census-sql`): the statements one request of each server sends. */
  readonly censusSql: boolean;
  /**
   * Every server sends its statements unnamed (`--unnamed-statements`; the API's through
   * `openDatabase({ preparedStatements: false })`), as an app behind a transaction-mode pooler
   * does; by default they name them, as on any direct connection (the reference servers through
   * `baseline/named-statements-client.ts`).
   */
  readonly unnamedStatements: boolean;
  /** Run the replica bench instead (`--replica`): the mix with reads on a streaming replica against the primary alone. */
  readonly replica: boolean;
  /** The demo API's count strategy as JSON (`--count`), or undefined for the demo's own (`DEMO_COUNT`). */
  readonly count: string | undefined;
}

/** The usage line printed for `--help`. */
export const USAGE = `npm run bench -- [--cluster [--workers N]] [--connections N] [--seconds N] [--warmup N] [--rounds N] [--only a,b] [--explain] [--census-sql] [--unnamed-statements] [--count exact|JSON] [--schema NAME] [--node 22|24]
  --count       the demo API's count strategy: 'exact' (count on every page) or a JSON strategy; default the demo's, the exact count reused while unchanged
  --node        run the whole bench (servers and load) on that Node line, installed on first use (scripts/ensure-node-versions.sh); default this Node
  DATABASE_URL  the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test); the data set goes to schema panel_bench
npm run bench -- --replica [--seconds N] [--rounds N]   the mix with reads on a streaming replica (private clusters) against the primary alone
npm run bench -- --large [--help]   index pages on 10,000,000 posts, exact count against the opt-in count strategy (src/large/)`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, instead got "${raw}".`);
  return value;
}

/** `--count`: 'exact', 'estimate' or a JSON strategy, as JSON for the server (checked again by the panel at start). */
function countOption(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'exact' || raw === 'estimate') return JSON.stringify(raw);
  try {
    JSON.parse(raw);
  } catch {
    throw new Error(`--count must be exact, estimate or a JSON strategy such as '{"strategy":"exact","reuseUnchangedMs":1000}', instead got "${raw}".`);
  }
  return raw;
}

/** Reads the command line (after `npm run bench --`). */
export function parseBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv, cores: number): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      cluster: { type: 'boolean', default: false },
      workers: { type: 'string' },
      connections: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
      explain: { type: 'boolean', default: false },
      'census-sql': { type: 'boolean', default: false },
      'unnamed-statements': { type: 'boolean', default: false },
      replica: { type: 'boolean', default: false },
      count: { type: 'string' },
      schema: { type: 'string' },
      // Handled before the options are read (cli/node-version.ts); here only when already on that Node.
      node: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const schema = values.schema ?? 'panel_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`--schema must be a lower-case identifier, instead got "${schema}".`);
  return {
    url: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    schema,
    workers: values.cluster ? positive('workers', values.workers, cores) : 1,
    connections: positive('connections', values.connections, 10),
    seconds: positive('seconds', values.seconds, 9),
    warmupSeconds: positive('warmup', values.warmup, 1),
    rounds: Math.max(1, positive('rounds', values.rounds, 3)),
    only: values.only ? values.only.split(',').map((name) => name.trim()) : [],
    explain: values.explain,
    censusSql: values['census-sql'],
    unnamedStatements: values['unnamed-statements'],
    count: countOption(values.count),
    replica: values.replica,
  };
}
