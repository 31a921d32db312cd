import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OneTimeReveals } from '@panel/core';
import { guardScreen as guardShellScreen, type GuardRules, type PanelViewer, type ShellContext } from '@panel/panel-ui';
import type { ApiTokenService } from '../tokens/token-service.js';

export { sendPage, seeOther } from '@panel/panel-ui';

/** Everything the token and settings screens share: the shell's context, the token service, the one-time reveals and the gate. */
export interface ScreenContext extends ShellContext {
  readonly tokens: ApiTokenService;
  /** New tokens' secrets waiting for their reveal screen, in the database (`panel_one_time_reveals`). */
  readonly reveals: OneTimeReveals;
  /** `manageTokensIf` for this request's viewer, fail-closed, asked once per request. */
  readonly mayManageTokens: GuardRules['may'];
}

/**
 * The gate of every token and settings URL (the shell's `guardScreen` with `manageTokensIf`):
 * a viewer it does not allow gets the app's 404, so the screens' existence is not disclosed.
 */
export function guardScreen(context: ScreenContext, request: FastifyRequest, reply: FastifyReply, rules: Omit<GuardRules, 'may'> = {}): Promise<PanelViewer | null> {
  return guardShellScreen(context, request, reply, { ...rules, may: context.mayManageTokens });
}
