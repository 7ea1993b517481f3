import { scopesOfChangedIds } from '@fsm/projections';
import type { AppDeps } from '../app-deps.js';
import { principalFromToken } from '../auth/principal.js';
import type { LiveAccess } from './live-hub.js';

/** The live hub checks sessions and scopes exactly as the HTTP routes do. */
export function liveAccessOf(deps: AppDeps): LiveAccess {
  return {
    principalOf: (token) => principalFromToken(token, deps),
    scopesOf: (ids) => scopesOfChangedIds(deps.pool, ids),
  };
}
