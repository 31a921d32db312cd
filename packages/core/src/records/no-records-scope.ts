import { sql } from 'kysely';
import type { ScopeFunction } from './records-query.js';

/**
 * The scope that lets no record through: what `ReadableRecords` answers for a resource the
 * actor may not read at all.
 */
export const NO_RECORDS: ScopeFunction = (query) => query.where(sql<boolean>`false`);
