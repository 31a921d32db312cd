import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Panel } from '@panel/core';
import type { RequestGate } from '../controller/request-gate.js';
import type { DiscoveredController } from '../routing/discover-controllers.js';
import type { OpenApiObject } from '../openapi/openapi-options.js';

/**
 * A part of the API an app adds by listing it in `mountPanelApi({ extensions: [...] })` (and in
 * `mountPanelAttachments`): Edition B (its `configurePanelApi()`) is one.
 * `@panel/api` knows this interface, never an extension: removing one is deleting its package
 * and its line in `extensions`. See docs/extensions.md.
 */
export interface ApiExtension {
  /** How boot errors name it ("Edition B"). */
  readonly name: string;
  /** Sets the extension up for one mount, at boot, once; what it returns joins the mount. */
  mount(host: ExtensionHost): Promise<MountedExtension>;
  /** File presentation: draws the extension's own file routes (Edition B's signed URLs) next to the standard ones. */
  attachments?(host: AttachmentsHost): Promise<void>;
}

/** What a mount tells an extension at boot. */
export interface ExtensionHost {
  /** The app the mount is registered on (to decorate it or log a boot warning). */
  readonly app: FastifyInstance;
  readonly panel: Panel;
  /** Whether the license has the `api` feature (without it no route is drawn). */
  readonly licensed: boolean;
  /** The mount's controllers folder. */
  readonly controllersDir: string;
}

/** What one extension adds to one mount; every member is optional. */
export interface MountedExtension {
  /** The gate stage: authenticates a credential before the controller, and permits each action (at most one extension of a mount has one). */
  readonly gate?: RequestGate;
  /** Routes: the controllers the mount serves, given the discovered ones (Edition B adds a catch-all for every other resource). */
  controllers?(discovered: readonly DiscoveredController[]): Promise<DiscoveredController[]>;
  /** Routes: whether `GET …/<route_key>/:id/<association>` traversals are drawn. */
  readonly traversals?: boolean;
  /** OpenAPI: the security schemes the gate accepts, listed first and required by default; also named in `WWW-Authenticate`. */
  readonly securitySchemes?: Readonly<Record<string, OpenApiObject>>;
  /** Rate-limit keys: the own limit (requests per window) of a credential the gate verified, or null for the mount's. */
  credentialLimit?(credentialId: number): Promise<number | null>;
}

/** What `mountPanelAttachments` gives an extension's file routes. */
export interface AttachmentsHost {
  readonly app: FastifyInstance;
  readonly panel: Panel;
  /** Answers with the blob `key` named `filename` (404 when it is not that blob), with `cacheControl`. */
  serve(key: string, filename: string, cacheControl: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}
