import type { ApiExtension } from '@panel/api';
import type { ScreensExtension } from '@panel/panel-ui';
import type { TokenPepperSource } from '../pepper/token-pepper.js';
import type { ManageTokensIf } from './manage-tokens-gate.js';
import type { ApiTokenService } from '../tokens/token-service.js';

/**
 * Edition B options after validation, complete and frozen, and Edition B itself as an API
 * and screens extension: `mountPanelApi({ extensions: [panelApi] })` mounts it and
 * `panelScreens({ extensions: [panelApi] })` adds its screens (its code loads then, not before:
 * a script that only reads tokens does not load the API or the screens).
 */
export interface PanelApiTokensConfig extends ApiExtension, ScreensExtension {
  readonly edition: 'B';
  readonly manageTokensIf: ManageTokensIf;
  readonly pepper: TokenPepperSource;
  readonly signedUrlTtlSeconds: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Edition B: the token service of the mount (set when a mount lists `configurePanelApi()`).
     * The panel's token screens and scripts use it, so a change to the default permissions list
     * applies to the next request at once (other processes see it within two seconds).
     */
    panelApiTokens?: ApiTokenService;
  }
}
