import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { agenceRoutes } from './agence-routes.js';
import { clientRoutes } from './client-routes.js';
import { installationRoutes } from './installation-routes.js';
import { interlocuteurRoutes } from './interlocuteur-routes.js';
import { metierRoutes } from './metier-routes.js';
import { qrCodeRoutes } from './qrcode-routes.js';
import { siteRoutes } from './site-routes.js';
import { telesurvRoutes } from './telesurv-routes.js';
import { templateRoutes } from './template-routes.js';
import { userRoutes } from './user-routes.js';

/** Management routes (spec management.md §7); all need a signed-in user. */
export async function managementRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  await clientRoutes(secured, deps);
  await siteRoutes(secured, deps);
  await installationRoutes(secured, deps);
  await interlocuteurRoutes(secured, deps);
  await qrCodeRoutes(secured, deps);
  await metierRoutes(secured, deps);
  await agenceRoutes(secured, deps);
  await userRoutes(secured, deps);
  await telesurvRoutes(secured, deps);
  await templateRoutes(secured, deps);
}
