import { randomUUID } from 'node:crypto';
import {
  METIERS_STREAM_ID,
  clientEventSchema,
  clientStreamId,
  installationEventSchema,
  installationStreamId,
  metierEventSchema,
  parseRecorded,
  siteEventSchema,
  siteStreamId,
  type ClientBodyInput,
  type InstallationBodyInput,
  type MetierBodyInput,
  type SiteBodyInput,
} from '@fsm/contracts';
import { execute, type Actor, type CommandContext } from '../commands/execute.js';
import { clientDecider } from '../domain/client/index.js';
import { installationDecider } from '../domain/installation/index.js';
import { metiersDecider } from '../domain/metier/index.js';
import { siteDecider } from '../domain/site/index.js';

/** The fields of each link of the chain; the links themselves (client_id, site_id, id_metier) are filled in. */
export interface InstallationTreeFields {
  metier: MetierBodyInput;
  client: ClientBodyInput;
  site: Omit<SiteBodyInput, 'client_id'>;
  installation: Omit<InstallationBodyInput, 'site_id' | 'id_metier'>;
}

/**
 * A métier, and a client → site → installation on it, through the management
 * deciders straight to the log (for tests whose subject is not the management
 * routes), all created `at`.
 */
export async function appendInstallationTree(
  context: CommandContext,
  actor: Actor,
  at: string,
  fields: InstallationTreeFields,
): Promise<{ metierId: string; clientId: string; siteId: string; installationId: string }> {
  const metierId = randomUUID();
  await execute(context, metiersDecider, METIERS_STREAM_ID, { type: 'CreateMetier', data: { metierId, fields: fields.metier, createdAt: at } }, actor, (r) =>
    parseRecorded(metierEventSchema, r),
  );
  const clientId = randomUUID();
  await execute(context, clientDecider, clientStreamId(clientId), { type: 'CreateClient', data: { clientId, fields: fields.client, createdAt: at } }, actor, (r) =>
    parseRecorded(clientEventSchema, r),
  );
  const siteId = randomUUID();
  await execute(
    context,
    siteDecider,
    siteStreamId(siteId),
    { type: 'CreateSite', data: { siteId, fields: { ...fields.site, client_id: clientId }, createdAt: at } },
    actor,
    (r) => parseRecorded(siteEventSchema, r),
  );
  const installationId = randomUUID();
  await execute(
    context,
    installationDecider,
    installationStreamId(installationId),
    { type: 'CreateInstallation', data: { installationId, fields: { ...fields.installation, id_metier: metierId, site_id: siteId }, createdAt: at } },
    actor,
    (r) => parseRecorded(installationEventSchema, r),
  );
  return { metierId, clientId, siteId, installationId };
}
