// A second process on the same PostgreSQL database, with its own pool, its own listening
// connection and its own token cache: it answers the parent's questions over IPC.
import { openDatabase } from '@panel/core';
import { ApiTokenService, grantKey } from '../../src/index.js';
import type { PeerAnswer, PeerQuestion } from './token-peer.js';

const { PEER_DATABASE_URL: url, PEER_SCHEMA: schema, PEER_PEPPER: firstPepper, PEER_MAX_AGE_MILLIS: maxAge } = process.env;
let pepper = firstPepper!;
const database = await openDatabase({ url: url!, schema: schema!, maxConnections: 2, applicationName: 'panel token peer' });
const tokens = new ApiTokenService({ database, pepper: () => pepper, env: {}, cache: { maxAgeMillis: Number(maxAge) } });
await database.changes!.ready();

async function answer(question: PeerQuestion): Promise<PeerAnswer> {
  const statements: string[] = [];
  const stop = database.onQuery((query) => statements.push(query.sql));
  try {
    if (question.op === 'authenticate') {
      const token = await tokens.authenticate(question.secret);
      return { accepted: token !== undefined, grants: token ? token.grants.map(grantKey) : [], statements: statements.length };
    }
    if (question.op === 'defaultGrants') {
      const defaults = await tokens.defaultGrants();
      return { accepted: true, grants: defaults.grants.map(grantKey), statements: statements.length };
    }
    if (question.op === 'rateLimit') {
      const rateLimit = await tokens.rateLimit(question.id);
      return { accepted: true, grants: [], rateLimit, statements: statements.length };
    }
    pepper = question.pepper;
    return { accepted: true, grants: [], statements: 0 };
  } finally {
    stop();
  }
}

process.on('message', (message: { seq: number; question: PeerQuestion }) => {
  void answer(message.question).then(
    (reply) => process.send!({ seq: message.seq, reply }),
    (error: unknown) => process.send!({ seq: message.seq, error: String((error as Error)?.message ?? error) }),
  );
});
process.on('disconnect', () => {
  tokens.close();
  void database.close().then(() => process.exit(0));
});
process.send!({ seq: 0, ready: true });
