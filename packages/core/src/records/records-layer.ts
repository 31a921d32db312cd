import type { Kysely } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import type { PanelAttachments } from '../attachments/attachments-service.js';
import type { RecordCounts } from './record-counts.js';
import type { CountStrategy } from './count-strategy.js';
import type { StatementCache } from './statement-cache.js';

/**
 * What the records layer's reads, writes and deletes share: the database (or the caller's
 * transaction), the resources, the attachments, the counts and the statement cache of one
 * `RecordsRepository`. Its functions (`record-reads.ts`, `record-writes.ts`, `record-deletes.ts`)
 * take it as their first argument.
 */
export interface RecordsLayer {
  readonly db: Kysely<any>;
  readonly registry: ReadonlyMap<string, CompiledResource>;
  /** Makes file URLs and removes a deleted record's attachments; without it, URLs are under `rootPath`. */
  readonly attachments: PanelAttachments | undefined;
  readonly rootPath: string;
  readonly counts: RecordCounts;
  /** How a list's total is found unless the resource's own `count` says otherwise. */
  readonly countStrategy: CountStrategy;
  /** Whether an association of the view reads the resource's own table (then a write cannot read itself back in one statement). */
  readsOwnTable(resource: CompiledResource, view: View): boolean;
  /** The statements compiled once per shape (finds, lists, writes), or the no-op cache: see `StatementCache`. */
  readonly statements: StatementCache;
}
