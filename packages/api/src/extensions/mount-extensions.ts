import { PanelConfigError } from '@panel/core';
import type { RequestGate } from '../controller/request-gate.js';
import type { DiscoveredController } from '../routing/discover-controllers.js';
import type { OpenApiObject } from '../openapi/openapi-options.js';
import type { ApiExtension, ExtensionHost, MountedExtension } from './api-extension.js';

/** A mount's extensions, joined: what the rest of the mount asks, whichever extension answers. */
export interface MountExtensions {
  /** The gate stage, or undefined (Edition A): then no credential is checked before the controller. */
  readonly gate: RequestGate | undefined;
  /** Whether an extension decides which controllers are served (then no "missing controller" warning is due). */
  readonly routesControllers: boolean;
  controllers(discovered: readonly DiscoveredController[]): Promise<DiscoveredController[]>;
  readonly traversals: boolean;
  /** The gate's security schemes, in order (OpenAPI and `WWW-Authenticate`). */
  readonly securitySchemes: Readonly<Record<string, OpenApiObject>>;
  readonly credentialLimit: ((credentialId: number) => Promise<number | null>) | undefined;
}

/**
 * Sets up each extension for one mount, in the order listed, and joins what they add: the
 * controllers pass through each extension in turn; the security schemes are merged. Two gates
 * would decide the same request twice, so a mount takes at most one.
 */
export async function mountExtensions(extensions: readonly ApiExtension[], host: ExtensionHost): Promise<MountExtensions> {
  const mounted: { name: string; parts: MountedExtension }[] = [];
  for (const extension of extensions) mounted.push({ name: extension.name, parts: await extension.mount(host) });
  const gated = mounted.filter(({ parts }) => parts.gate !== undefined);
  if (gated.length > 1) {
    throw new PanelConfigError(`mountPanelApi: ${gated.map(({ name }) => name).join(' and ')} both gate requests; a mount takes one gate. Fix: list one of them in extensions.`);
  }
  const routing = mounted.map(({ parts }) => parts).filter((parts) => parts.controllers !== undefined);
  const limits = mounted.map(({ parts }) => parts.credentialLimit).filter((limit) => limit !== undefined);
  return {
    gate: gated[0]?.parts.gate,
    routesControllers: routing.length > 0,
    async controllers(discovered) {
      let controllers = [...discovered];
      for (const parts of routing) controllers = await parts.controllers!(controllers);
      return controllers;
    },
    traversals: mounted.some(({ parts }) => parts.traversals === true),
    securitySchemes: Object.assign({}, ...mounted.map(({ parts }) => parts.securitySchemes ?? {})),
    credentialLimit: limits[0],
  };
}
