import type { BlobStore } from '@fsm/eventstore';
import type { AppDeps } from '../app-deps.js';
import { noteProjectionWait } from '../http/read-your-writes.js';
import type { Actor, CommandCaller, CommandContext } from './execute.js';

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

/** A caller whose commands may also store files (photos, signatures): the ticket handlers. */
export interface FileCaller extends CommandCaller {
  blobs: BlobStore;
}

/** The caller of one request (or one seed step): built once, handed to every handler it runs. */
export function commandCaller(deps: AppDeps, actor: Actor): FileCaller {
  return { context: commandContext(deps), db: deps.pool, actor, now: deps.clock(), blobs: deps.blobs };
}
