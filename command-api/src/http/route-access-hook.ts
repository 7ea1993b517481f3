import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { ForbiddenError, accessRefusalMessage, canCallRoute, isApiRoute, routeAccessOf, routeKey, type SignedInAccess } from '@fsm/contracts';
import { authenticate, type AuthDeps } from '../auth/principal.js';

export interface RouteAccessOptions {
  /** Route prefixes outside the table and without a door. */
  skipPrefixes: readonly string[];
  /**
   * Route prefixes outside the table (their routes belong to a plugin, such as
   * the OpenAPI reference) whose every route gets this door.
   */
  prefixAccess?: Readonly<Record<string, SignedInAccess>>;
}

export class RouteMissingFromAccessTableError extends Error {
  constructor(key: string) {
    super(`${key} is not in ROUTE_ACCESS (contracts/src/auth/route-access.ts): say who may call it before registering it.`);
    this.name = 'RouteMissingFromAccessTableError';
  }
}

/**
 * The door of every API route, from the one table in contracts, and the one
 * place a signed-in route's bearer token is authenticated (the route reads
 * `principalOf`): an `onRoute`
 * hook looks each route up as it is registered (a route missing from the table
 * throws, so the app does not start) and puts a check first in the route's
 * `onRequest` chain. The check runs before the body is even read, so the order
 * is the same everywhere: 401 (no, expired, forged or revoked token) → 403
 * (role or permission) → 400 (body, params, query) → the route's own scope
 * checks (404) and state (409). Routes repeat no role or permission check the
 * table makes; they check only what depends on the data (agency scope, a body
 * field, an export's kind).
 *
 * Must be registered before any route, so every route passes through it.
 */
export function registerRouteAccess(app: FastifyInstance, deps: AuthDeps, options: RouteAccessOptions): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiRoute(route.url) || options.skipPrefixes.some((prefix) => route.url.startsWith(prefix))) return;
    const methods = [route.method].flat();
    const prefixed = Object.entries(options.prefixAccess ?? {}).find(([prefix]) => route.url.startsWith(prefix))?.[1];
    const accesses = methods.map((method) => {
      const access = prefixed ?? routeAccessOf(method, route.url);
      if (!access) throw new RouteMissingFromAccessTableError(routeKey(method, route.url));
      return access;
    });
    const signedIn = accesses.filter((access): access is SignedInAccess => access.who === 'signed-in');
    if (signedIn.length === 0) return;
    if (signedIn.length !== accesses.length) throw new Error(`${route.url}: one route registered for methods of different access kinds`);
    // Read now: a plugin may register one options object under two urls ('/api/docs' and '/api/docs/').
    const url = route.url;
    const byMethod = new Map(methods.map((method, index) => [routeKey(method, url), signedIn[index]!]));
    const door: onRequestHookHandler = async (request: FastifyRequest) => {
      const access = byMethod.get(routeKey(request.method, url))!;
      request.principal = await authenticate(request, deps);
      if (!canCallRoute(access, request.principal)) throw new ForbiddenError(accessRefusalMessage(access));
    };
    route.onRequest = [door, ...[route.onRequest ?? []].flat()];
  });
}
