import type { Projector } from '../projector.js';
import { agencesProjector } from './agences/agences-projector.js';
import { usersProjector } from './users/users-projector.js';

export * from './queryable.js';
export * from './agences/agences-queries.js';
export * from './users/users-queries.js';

/**
 * Every read model the product serves. The runner applies them together, in
 * one transaction per batch; changing a projector's `version` rebuilds them all
 * at the next start.
 */
export const readModelProjectors: readonly Projector[] = [agencesProjector, usersProjector];
