import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Panel } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import type { DiscoveredController } from './discover-controllers.js';
import type { ResourcesController } from '../controller/resources-controller.js';
import { settleCsrfStrategy } from '../controller/csrf-protection.js';

/** One route the runtime draws. */
export interface RouteEntry {
  readonly method: HTTPMethods;
  readonly path: string;
  readonly action: ActionName;
  readonly resourceName: string;
  readonly controller: typeof ResourcesController;
  readonly file: string;
}

const ROUTES: readonly { method: HTTPMethods; member: boolean; action: ActionName }[] = [
  { method: 'GET', member: false, action: 'index' },
  { method: 'POST', member: false, action: 'create' },
  { method: 'GET', member: true, action: 'show' },
  { method: 'PATCH', member: true, action: 'update' },
  { method: 'PUT', member: true, action: 'update' },
  { method: 'DELETE', member: true, action: 'destroy' },
];

/** The routes of the discovered controllers, relative to the mount path. */
export function routeTable(panel: Panel, controllers: readonly DiscoveredController[]): RouteEntry[] {
  return controllers.flatMap(({ version, controller, resourceName, file }) => {
    const collection = `/resources/${version}/${panel.resource(resourceName).naming.routeKey}`;
    return ROUTES.map(({ method, member, action }) => ({
      method,
      path: member ? `${collection}/:id` : collection,
      action,
      resourceName,
      controller,
      file,
    }));
  });
}

/** Draws the route table on a Fastify scope; each request gets a fresh controller instance. */
export function drawRoutes(api: FastifyInstance, panel: Panel, controllers: readonly DiscoveredController[], mountPath: string): RouteEntry[] {
  const table = routeTable(panel, controllers);
  for (const { controller } of controllers) settleCsrfStrategy(controller);
  for (const route of table) {
    const Controller = route.controller;
    const resource = panel.resource(route.resourceName);
    api.route({
      method: route.method,
      url: route.path,
      handler: (request, reply) => new Controller({ request, reply, panel, resource, action: route.action, mountPath }).process(),
    });
  }
  return table;
}
