import type { Queryable } from '../queryable.js';

/** What a client, site or installation delete asks about: one of the three ids. */
export type OpenTicketTarget = { clientId: string } | { siteId: string } | { installationId: string };

/**
 * Whether a ticket that is not closed still names the client, site or
 * installation (refuses deleting it: the technician on the way still needs
 * the address). Tickets carry the ids they were opened with, so a site moved
 * to another client since then is still found by its own id.
 */
export async function hasOpenTickets(db: Queryable, target: OpenTicketTarget): Promise<boolean> {
  const [column, id] =
    'clientId' in target ? ['client_id', target.clientId] : 'siteId' in target ? ['site_id', target.siteId] : ['installation_id', target.installationId];
  const { rows } = await db.query(`SELECT 1 FROM rm.tickets WHERE ${column} = $1 AND statut <> 'clos' LIMIT 1`, [id]);
  return rows.length > 0;
}
