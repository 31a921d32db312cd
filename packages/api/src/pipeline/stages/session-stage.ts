import type { Stage } from '../request-context.js';

/** Loads the panel session cookie of the request (expiry, rotation, revocation); in the list only when the panel has sessions. */
export const sessionStage: Stage = {
  name: 'session',
  run: (context) => context.session.load(context.panel, context.request, context.reply),
};
