import type { RecordId, RecordRow } from '@panel/core';
import { entityTag } from '../http-semantics/entity-tag.js';
import { showEntityTag } from '../http-semantics/show-entity-tag.js';
import type { RequestContext } from '../pipeline/request-context.js';

/**
 * The ETag of a create's or an update's success answer where the digest of its body is not the
 * record's show ETag, which `If-Match` takes ("create and update answers carry it too"): under a
 * public show, show's tag for this client (`showEntityTag`); with `include`, the tag of the
 * answer without its included records, taken before they are embedded (as GET show without
 * `include` tags it). Call it once the success answer is rendered and before anything is
 * embedded; otherwise the body's digest, taken as it is sent, is that tag and nothing is done.
 */
export async function tagWrittenAnswer(context: RequestContext, row: RecordRow, included: boolean): Promise<void> {
  const rendered = context.rendered;
  if (rendered === undefined || rendered.status >= 300) return;
  const asShown = context.route.showRoute ? await showEntityTag(context, row[context.resource.primaryKey] as RecordId, context.transaction) : undefined;
  if (asShown !== undefined) rendered.entityTag = asShown;
  else if (included) rendered.entityTag = entityTag(rendered.body);
}
