import { create } from './create-operation.js';
import { destroy } from './destroy-operation.js';
import { keysetList, list } from './list-operation.js';
import { show } from './show-operation.js';
import { update } from './update-operation.js';
import { batch } from './batch-operation.js';

/**
 * The actions of the API as operations that run without HTTP (Payload's endpoint → operation):
 * each takes one named-args object (`panel`, `resource`, `actor`, and its own members), applies
 * the same authorization, validation, hooks and transaction as the API, and returns the data or
 * throws a typed error (`code`: `PANEL_ERR_NOT_AUTHORIZED`, `PANEL_ERR_RECORD_NOT_FOUND`,
 * `PANEL_ERR_RECORD_INVALID`). The API's controllers call them; so can a script or a job.
 *
 * @example
 * import { operations } from '@panel/core';
 * const { rows } = await operations.list({ panel, resource: 'BlogPost', actor: user, perPage: 10 });
 */
export const operations = Object.freeze({ list, keysetList, show, create, update, destroy, batch });
