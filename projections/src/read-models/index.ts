import type { Projector } from '../projector.js';

/**
 * Every read model the product serves. The runner applies them together, in
 * one transaction per batch; changing a projector's `version` rebuilds them all
 * at the next start.
 */
export const readModelProjectors: readonly Projector[] = [];
