import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';

/** Management routes (spec management.md §7); all need a signed-in user. */
export async function managementRoutes(_secured: FastifyInstance, _deps: AppDeps): Promise<void> {}
