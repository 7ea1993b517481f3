/**
 * The look-up entities as the ticket screens use them (spec §3: Client id, nom,
 * ville; Site id, nom, ville; Installation id, nom; ...). Read
 * leniently: the management routes send more fields, and ids are kept as strings.
 */
export interface ClientOption {
  id: string;
  nom: string;
  ville: string | null;
}

export interface InstallationOption {
  id: string;
  nom: string;
}

export interface SiteOption {
  id: string;
  nom: string;
  ville: string | null;
}

export interface UtilisateurOption {
  id: string;
  nom: string;
  prenom: string;
  role: string | null;
}

export interface InterlocuteurOption {
  id: string;
  nom: string;
  prenom: string;
  email: string | null;
  telephone: string | null;
}

export interface AgenceOption {
  id: string;
  nom: string;
}

type Row = Record<string, unknown>;

/** An array, or an object carrying one (`{ clients: [...] }`, `{ data: [...] }`). */
function readList(answer: unknown): Row[] {
  let list: unknown = answer;
  if (!Array.isArray(list) && typeof list === 'object' && list !== null) {
    list = Object.values(list).find(Array.isArray);
  }
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is Row => typeof item === 'object' && item !== null);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function optionalText(value: unknown): string | null {
  const t = text(value).trim();
  return t === '' ? null : t;
}

function hasId(row: Row): boolean {
  return typeof row.id === 'string' || typeof row.id === 'number';
}

export function toClient(row: Row): ClientOption {
  return { id: text(row.id), nom: text(row.nom), ville: optionalText(row.ville) };
}

export function toInstallation(row: Row): InstallationOption {
  return { id: text(row.id), nom: text(row.nom) };
}

export function toSite(row: Row): SiteOption {
  return {
    id: text(row.id),
    nom: text(row.nom),
    ville: optionalText(row.ville),
  };
}

export function toUtilisateur(row: Row): UtilisateurOption {
  return { id: text(row.id), nom: text(row.nom), prenom: text(row.prenom), role: optionalText(row.role) };
}

export function toInterlocuteur(row: Row): InterlocuteurOption {
  return {
    id: text(row.id),
    nom: text(row.nom),
    prenom: text(row.prenom),
    email: optionalText(row.email),
    telephone: optionalText(row.telephone),
  };
}

export function toAgence(row: Row): AgenceOption {
  return { id: text(row.id), nom: text(row.nom) };
}

export function readRows<T>(answer: unknown, map: (row: Row) => T): T[] {
  return readList(answer).filter(hasId).map(map);
}

/** French alphabetical order, accents and case ignored. */
export function byName<T extends { nom: string; prenom?: string }>(a: T, b: T): number {
  return (
    a.nom.localeCompare(b.nom, 'fr', { sensitivity: 'base' }) ||
    (a.prenom ?? '').localeCompare(b.prenom ?? '', 'fr', { sensitivity: 'base' })
  );
}

/** A site as its pickers list it: its name, then its town in brackets. */
export function siteName(site: { nom: string; ville?: string | null }): string {
  return site.ville ? `${site.nom} (${site.ville})` : site.nom;
}

export function personName(person: { prenom: string; nom: string }): string {
  return `${person.prenom} ${person.nom}`.trim();
}
