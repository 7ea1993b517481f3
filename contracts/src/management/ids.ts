import { z } from 'zod';

/*
 * Every management entity is identified by a UUID chosen by the command handler
 * (ids come in the command, so a retried request does not create twice). One
 * schema per entity keeps messages specific and names unique in the package.
 */
export const agenceIdSchema = z.guid({ error: "Identifiant d'agence invalide." });
export const clientIdSchema = z.guid({ error: 'Identifiant de client invalide.' });
export const siteIdSchema = z.guid({ error: 'Identifiant de site invalide.' });
export const installationIdSchema = z.guid({ error: "Identifiant d'installation invalide." });
export const interlocuteurIdSchema = z.guid({ error: "Identifiant d'interlocuteur invalide." });
export const qrCodeIdSchema = z.guid({ error: 'Identifiant de QR code invalide.' });
export const userIdSchema = z.guid({ error: "Identifiant d'utilisateur invalide." });
export const metierIdSchema = z.guid({ error: 'Identifiant de métier invalide.' });
export const templateIdSchema = z.guid({ error: 'Identifiant de modèle invalide.' });

/** Route params `{id}` of the management routes. */
export const managementIdParamsSchema = z.object({ id: z.guid({ error: 'Identifiant invalide.' }) });
