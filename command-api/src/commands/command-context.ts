import type { AppDeps } from '../app-deps.js';
import type { CommandContext } from './execute.js';

export function commandContext(deps: AppDeps): CommandContext {
  return {
    store: deps.store,
    newId: deps.newId,
    waitForProjection: (position) => deps.watcher.waitFor(position, deps.env.READ_YOUR_WRITES_TIMEOUT_MS),
  };
}
