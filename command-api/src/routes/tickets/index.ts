import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';

/** Ticket routes that need a signed-in user (spec tickets.md §7). */
export async function ticketRoutes(_secured: FastifyInstance, _deps: AppDeps): Promise<void> {}

/** Public ticket routes: the QR form and its captcha. */
export async function publicTicketRoutes(_open: FastifyInstance, _deps: AppDeps): Promise<void> {}
