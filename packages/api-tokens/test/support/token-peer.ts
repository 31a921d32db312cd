import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PanelDatabase } from '@panel/core';
import { ApiTokenService, grantKey } from '../../src/index.js';

/** What a peer is asked: authenticate a secret, read the default permissions list, or use another pepper. */
export type PeerQuestion = { op: 'authenticate'; secret: string } | { op: 'defaultGrants' } | { op: 'rateLimit'; id: number } | { op: 'pepper'; pepper: string };

/** A peer's answer: accepted (and the token's grants, the default list, or a token's rate limit), and how many statements it took. */
export interface PeerAnswer {
  readonly accepted: boolean;
  readonly grants: readonly string[];
  readonly statements: number;
  readonly rateLimit?: number | null;
}

/** Another app instance with its own token cache: a separate process (PostgreSQL) or a second service in this one (PGlite). */
export interface TokenPeer {
  ask(question: PeerQuestion): Promise<PeerAnswer>;
  close(): Promise<void>;
}

/** A second Node process on the same PostgreSQL database and schema: its own pool, listener and cache. */
export async function startPeerProcess(input: { url: string; schema: string; pepper: string; maxAgeMillis: number }): Promise<TokenPeer> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./token-peer-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--conditions=@panel/source'],
    env: { ...process.env, PEER_DATABASE_URL: input.url, PEER_SCHEMA: input.schema, PEER_PEPPER: input.pepper, PEER_MAX_AGE_MILLIS: String(input.maxAgeMillis) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (answer: PeerAnswer) => void; reject: (error: Error) => void }>();
  let seq = 0;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the token peer process exited (${code}) before it was ready`)));
    child.on('message', (message: { seq: number; ready?: boolean; reply?: PeerAnswer; error?: string }) => {
      if (message.ready) return resolve();
      const pending = waiting.get(message.seq);
      waiting.delete(message.seq);
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else pending?.resolve(message.reply!);
    });
  });
  await ready;
  return {
    ask: (question) =>
      new Promise<PeerAnswer>((resolve, reject) => {
        seq += 1;
        waiting.set(seq, { resolve, reject });
        child.send({ seq, question });
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** PGlite is one process: the second instance is a second service with its own cache on the same database (and its change channel). */
export function inProcessPeer(input: { database: PanelDatabase; pepper: string; maxAgeMillis: number }): TokenPeer {
  let pepper = input.pepper;
  const tokens = new ApiTokenService({ database: input.database, pepper: () => pepper, env: {}, cache: { maxAgeMillis: input.maxAgeMillis } });
  return {
    async ask(question) {
      const statements: string[] = [];
      const stop = input.database.onQuery((query) => statements.push(query.sql));
      try {
        if (question.op === 'authenticate') {
          const token = await tokens.authenticate(question.secret);
          return { accepted: token !== undefined, grants: token ? token.grants.map(grantKey) : [], statements: statements.length };
        }
        if (question.op === 'defaultGrants') return { accepted: true, grants: (await tokens.defaultGrants()).grants.map(grantKey), statements: statements.length };
        if (question.op === 'rateLimit') {
          const rateLimit = await tokens.rateLimit(question.id);
          return { accepted: true, grants: [], rateLimit, statements: statements.length };
        }
        pepper = question.pepper;
        return { accepted: true, grants: [], statements: 0 };
      } finally {
        stop();
      }
    },
    close: async () => tokens.close(),
  };
}
