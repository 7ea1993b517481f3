import type { AppDeps } from '../app-deps.js';
import { noteProjectionWait } from '../http/read-your-writes.js';
import type { CommandContext } from './execute.js';

export function commandContext(deps: AppDeps): CommandContext {
  return {
    store: deps.store,
    newId: deps.newId,
    waitForProjection: async (position) => {
      const projected = await deps.watcher.waitFor(position, deps.env.READ_YOUR_WRITES_TIMEOUT_MS);
      // A late read model turns the request's answer into a 202 (http/read-your-writes.ts).
      noteProjectionWait(position, projected, (a, b) => deps.store.comparePositions(a, b));
      return projected;
    },
  };
}
