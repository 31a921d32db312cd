import type { CompiledQuery, OperationNode } from 'kysely';

const LOCKING = /\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b/i;

function onlyReads(node: OperationNode): boolean {
  if (node.kind !== 'SelectQueryNode') return false;
  const ctes = (node as { with?: { expressions: readonly { expression: OperationNode }[] } }).with?.expressions ?? [];
  return ctes.every((cte) => onlyReads(cte.expression));
}

/**
 * Whether a statement only reads, so that a replica may answer it: a select (or `explain`) with
 * no row lock and no data-modifying `with`. Judged on Kysely's operation node where there is
 * one, and on the SQL's first word for raw statements. A statement judged a read that writes
 * anyway (a function with side effects) is refused by the replica with SQLSTATE 25006 and sent
 * to the primary, so a wrong guess costs a round trip, never a wrong answer.
 */
export function isReadStatement(query: CompiledQuery): boolean {
  if (LOCKING.test(query.sql)) return false;
  if (query.query.kind === 'SelectQueryNode') return onlyReads(query.query);
  return /^\s*(select|explain)\b/i.test(query.sql);
}
