import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledResource, Panel } from '@panel/core';
import type { ActionName } from './callback-chain.js';
import type { RequestGate } from './request-gate.js';
import type { HttpSemantics } from '../http-semantics/http-semantics.js';

/** What the runtime gives a controller for one request. */
export interface ControllerContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly action: ActionName;
  /** The path of the API mount (`/api`), where the `per_page` cookie lives. */
  readonly mountPath: string;
  /** Default query parameters of the mount (`defaults:`). */
  readonly defaults?: Readonly<Record<string, string>>;
  /** The mount's `unpermittedAttributes` (default `ignore`). */
  readonly unpermittedAttributes?: 'ignore' | 'reject' | undefined;
  /** The mount's gate around authentication (Edition B's token gate, when the mount has `tokens`); undefined in Edition A. */
  readonly gate?: RequestGate | undefined;
  /** For `related`: the association traversed. */
  readonly association?: string | undefined;
  /**
   * For `related`: the controller that serves the association's target resource in the same
   * version. A traversal answers with the target's rules: this controller's before-actions
   * (authentication, the permission gate), current user, policy and serialization.
   */
  readonly targetController?: (new (context: ControllerContext) => unknown) | undefined;
  /** Set on the target's controller of a traversal: its gate asks for `index` or `show`. */
  readonly traversing?: boolean | undefined;
  /** The mount's HTTP semantics (rate limit, `If-Match`, `Idempotency-Key`); undefined runs actions bare. */
  readonly semantics?: HttpSemantics | undefined;
}

/** A response an action rendered, not sent yet. */
export interface Rendered {
  status: number;
  body: unknown;
}
