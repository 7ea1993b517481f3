/*
 * Event-store stream names. `<category>-<uuid>` so the category means what it
 * means in KurrentDB ($ce-client ...). Trades live in one catalogue stream
 * because reordering touches all of them at once and names must stay unique.
 */
export const MANAGEMENT_STREAM_CATEGORIES = {
  agence: 'agence',
  client: 'client',
  site: 'site',
  installation: 'installation',
  interlocuteur: 'interlocuteur',
  qrCode: 'qrcode',
  user: 'user',
  metiers: 'metiers',
  template: 'template',
} as const;

export const agenceStreamId = (id: string) => `agence-${id}`;
export const clientStreamId = (id: string) => `client-${id}`;
export const siteStreamId = (id: string) => `site-${id}`;
export const installationStreamId = (id: string) => `installation-${id}`;
export const interlocuteurStreamId = (id: string) => `interlocuteur-${id}`;
export const qrCodeStreamId = (id: string) => `qrcode-${id}`;
/** Staff users and remote-surveillance accounts alike. */
export const userStreamId = (id: string) => `user-${id}`;
export const METIERS_STREAM_ID = 'metiers-catalogue';
export const templateStreamId = (id: string) => `template-${id}`;
