import type { FastifyInstance } from 'fastify';
import { bootWarning } from '@panel/api';

import { EMPTY_DEFAULT_PERMISSIONS_WARNING, MISSING_DIGEST_INDEX_WARNING } from './edition-b-names.js';

/**
 * Edition B: says at boot when the default permissions list is empty, because then every
 * request on the code-hook path (the app's `setupAuthentication`, not a token) gets 403. Asked
 * only when a served controller's `setupAuthentication` lets a request in (the closed default
 * refuses them all, and an app that serves tokens only has nothing to fix). A database that
 * cannot answer yet (tables not migrated) says nothing here.
 */
export async function warnAboutEmptyDefaultPermissions(app: FastifyInstance, defaultPermissions: () => Promise<readonly unknown[]>): Promise<void> {
  let grants: readonly unknown[];
  try {
    grants = await defaultPermissions();
  } catch {
    return;
  }
  if (grants.length > 0) return;
  bootWarning(
    app,
    EMPTY_DEFAULT_PERMISSIONS_WARNING,
    "Panel API Edition B: the default permissions list is empty, so requests on the code-hook path (the base controller's setupAuthentication, without a token) get 403. Fix: grant index/show per resource on the panel's default permissions screen, or await app.panelApiTokens.setDefaultPermissions(['books:index', …]).",
  );
}

/**
 * Edition B: says at boot when the tokens table lacks the digest index (an app installed before
 * `apiTokensSchemaV2`), because then every token lookup reads the whole table. A database that
 * cannot answer yet says nothing here.
 */
export async function warnAboutMissingDigestIndex(app: FastifyInstance, hasDigestIndex: () => Promise<boolean>): Promise<void> {
  let present: boolean;
  try {
    present = await hasDigestIndex();
  } catch {
    return;
  }
  if (present) return;
  bootWarning(
    app,
    MISSING_DIGEST_INDEX_WARNING,
    'Panel API Edition B: the tokens table has no digest index (apiTokensSchemaV2), so every token lookup reads the whole panel_api_tokens table. Fix: run `panel-api install` (it adds the migration), then run your migrations.',
  );
}
