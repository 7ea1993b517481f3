import type { AgenceEvent, ClientEvent, InstallationEvent, MetierEvent, SiteEvent } from '@fsm/contracts';

/*
 * The management fiches the read-model tests build on (an agency, its
 * clients, their sites, their installations and the métiers), with the
 * values no test looks at filled in. A creation carries `createdAt`, an
 * update `updatedAt`, both at the same instant.
 */

/** The instant every fixture event is stamped with. */
export const at = '2026-11-20T08:00:00.000Z';

export function agence(id: string, nom: string): AgenceEvent {
  return { type: 'AgenceCreated', data: { agenceId: id, nom, adresse: '1 rue du Feu', cp_postal: '69001', ville: 'Lyon', telephone: '0400000000', templateId: null, createdAt: at } };
}

export function client(id: string, nom: string, agenceId: string, type: 'ClientCreated' | 'ClientUpdated' = 'ClientCreated'): ClientEvent {
  const facts = { clientId: id, nom, adresse: '2 rue des Lilas', ville: 'Lyon', code_postal: '69002', agenceId };
  return type === 'ClientCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

export function site(id: string, clientId: string, nom: string, type: 'SiteCreated' | 'SiteUpdated' = 'SiteCreated', adresse = '4 quai Rambaud'): SiteEvent {
  const facts = { siteId: id, clientId, nom, adresse, ville: 'Lyon', code_postal: '69002' };
  return type === 'SiteCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

export function metier(
  id: string,
  nom: string,
  facts: { ordre?: number | null; delai_inter?: number | null; HO_stats?: 0 | 1 } = {},
  type: 'MetierCreated' | 'MetierUpdated' = 'MetierCreated',
): MetierEvent {
  const data = { metierId: id, nom, ordre: facts.ordre ?? null, delai_inter: facts.delai_inter ?? null, HO_stats: facts.HO_stats ?? 0 };
  return type === 'MetierCreated' ? { type, data: { ...data, createdAt: at } } : { type, data: { ...data, updatedAt: at } };
}

export function installation(
  id: string,
  siteId: string,
  nom: string,
  metierId: string,
  more: { delai?: number; astreinte?: 0 | 1; type?: 'InstallationCreated' | 'InstallationUpdated' } = {},
): InstallationEvent {
  const facts = { installationId: id, siteId, nom, metierId, description: `${nom} du bâtiment`, delai: more.delai ?? 4, astreinte: more.astreinte ?? 0 };
  return more.type === 'InstallationUpdated' ? { type: 'InstallationUpdated', data: { ...facts, updatedAt: at } } : { type: 'InstallationCreated', data: { ...facts, createdAt: at } };
}
