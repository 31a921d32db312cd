import type { SelectQueryBuilder } from 'kysely';

/**
 * A query on a resource's table as a policy scope receives and returns it. Kept in a leaf
 * module: policies, the records layer and the resources all name it.
 */
export type RecordsQuery = SelectQueryBuilder<any, any, any>;

/** Narrows a records query; a policy scope's `resolve()` is one. */
export type ScopeFunction = (query: RecordsQuery) => RecordsQuery;
