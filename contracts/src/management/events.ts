import { z } from 'zod';
import { agenceEventSchema } from './agence.js';
import { clientEventSchema } from './client.js';
import { installationEventSchema } from './installation.js';
import { interlocuteurEventSchema } from './interlocuteur.js';
import { metierEventSchema } from './metier.js';
import { qrCodeEventSchema } from './qr-code.js';
import { siteEventSchema } from './site.js';
import { templateEventSchema } from './template.js';
import { userEventSchema } from './user.js';

/*
 * Naming inside event data, as in the ticket events: references and timestamps
 * are camelCase (`clientId`, `createdAt`), descriptive fields keep the spec's
 * names (nom, code_postal, cp_postal, delai_inter, HO_stats, content_html).
 * Who did it lives in the store's metadata, not in the data.
 */

/** Every management event, for projections and the reactor to parse what they read. */
export const managementEventSchema = z.discriminatedUnion('type', [
  ...agenceEventSchema.options,
  ...clientEventSchema.options,
  ...siteEventSchema.options,
  ...installationEventSchema.options,
  ...interlocuteurEventSchema.options,
  ...qrCodeEventSchema.options,
  ...userEventSchema.options,
  ...metierEventSchema.options,
  ...templateEventSchema.options,
]);
export type ManagementEvent = z.infer<typeof managementEventSchema>;
export type ManagementEventType = ManagementEvent['type'];
export const MANAGEMENT_EVENT_TYPES = managementEventSchema.options.map((option) => option.shape.type.value) as ManagementEventType[];

export function isManagementEventType(type: string): type is ManagementEventType {
  return (MANAGEMENT_EVENT_TYPES as string[]).includes(type);
}
