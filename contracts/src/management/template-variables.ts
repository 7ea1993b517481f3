/*
 * Variables offered by the template builder's 'Variables disponibles' panel
 * (management.md §3), inserted as `{{group.field}}`. The group prefix keeps
 * names that exist in several places apart (`{{ticket.nom}}` is the name typed
 * on the ticket, `{{technicien.nom}}` the technician's). Field names are the
 * spec's, verbatim, including `client.code_postale` (sites say `code_postal`).
 */

export type TemplateVariableKind = 'text' | 'date' | 'image';

export interface TemplateVariable {
  /** Dotted name, without braces: 'ticket.num_chrono'. */
  key: string;
  label: string;
  kind: TemplateVariableKind;
}

export interface TemplateVariableGroup {
  key: 'ticket' | 'technicien' | 'demandeur' | 'client' | 'site' | 'installation' | 'signature';
  label: string;
  variables: readonly TemplateVariable[];
}

const v = (key: string, label: string, kind: TemplateVariableKind = 'text'): TemplateVariable => ({ key, label, kind });

export const TEMPLATE_VARIABLE_GROUPS: readonly TemplateVariableGroup[] = [
  {
    key: 'ticket',
    label: 'Ticket',
    variables: [
      v('ticket.num_chrono', 'N° chrono'),
      v('ticket.id_technicien', 'Identifiant du technicien'),
      v('ticket.nom', 'Nom saisi sur le ticket'),
      v('ticket.prenom', 'Prénom saisi sur le ticket'),
      v('ticket.probleme', 'Problème'),
      v('ticket.photo', 'Photo', 'image'),
      v('ticket.created_at', 'Créé le', 'date'),
      v('ticket.arrive_at', 'Arrivée sur site', 'date'),
      v('ticket.temps_trajet', 'Temps de trajet'),
      v('ticket.etat_arrivee', "État à l'arrivée"),
      v('ticket.etat_depart', 'État au départ'),
      v('ticket.clos_at', 'Clôturé le', 'date'),
      v('ticket.email', 'Email saisi sur le ticket'),
      v('ticket.telephone', 'Téléphone saisi sur le ticket'),
      v('ticket.constat_tech', 'Constat du technicien'),
      v('ticket.remarque_tech', 'Remarque du technicien'),
      v('ticket.devis', 'Devis à établir (Oui / Non)'),
      v('ticket.urgent', 'Urgent (vide sinon)'),
    ],
  },
  { key: 'technicien', label: 'Technicien', variables: [v('technicien.nom', 'Nom'), v('technicien.prenom', 'Prénom')] },
  {
    key: 'demandeur',
    label: 'Demandeur',
    variables: [v('demandeur.nom', 'Nom'), v('demandeur.prenom', 'Prénom'), v('demandeur.email', 'Email')],
  },
  {
    key: 'client',
    label: 'Client',
    variables: [
      v('client.nom', 'Nom'),
      v('client.adresse', 'Adresse'),
      v('client.ville', 'Ville'),
      v('client.code_postale', 'Code postal'),
      v('client.telephone', 'Téléphone'),
    ],
  },
  {
    key: 'site',
    label: 'Site',
    variables: [
      v('site.nom', 'Nom'),
      v('site.adresse', 'Adresse'),
      v('site.ville', 'Ville'),
      v('site.code_postal', 'Code postal'),
      v('site.interlocuteur_princ', 'Interlocuteur principal'),
    ],
  },
  {
    key: 'installation',
    label: 'Installation',
    variables: [
      v('installation.nom', 'Nom'),
      v('installation.interlocuteur_princ', 'Interlocuteur principal'),
      v('installation.type', 'Type (métier)'),
      v('installation.description', 'Description'),
    ],
  },
  {
    key: 'signature',
    label: 'Signatures',
    variables: [v('signature.client', 'Signature du client', 'image'), v('signature.technicien', 'Signature du technicien', 'image')],
  },
];

export const TEMPLATE_VARIABLES: readonly TemplateVariable[] = TEMPLATE_VARIABLE_GROUPS.flatMap((group) => group.variables);
export const TEMPLATE_VARIABLE_KEYS: readonly string[] = TEMPLATE_VARIABLES.map((variable) => variable.key);

/** What the builder inserts: '{{ticket.num_chrono}}'. */
export function templateVariableToken(key: string): string {
  return `{{${key}}}`;
}

// Spaces inside the braces are tolerated: rich-text editors add them.
const TOKEN = /\{\{\s*([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*\}\}/g;

/** Every distinct variable a content uses, in order of first use. */
export function extractTemplateVariables(html: string): string[] {
  return [...new Set([...html.matchAll(TOKEN)].map((match) => match[1] ?? ''))];
}

/** Variables a content uses that the catalogue does not know (typos, shown as a warning). */
export function unknownTemplateVariables(html: string): string[] {
  return extractTemplateVariables(html).filter((key) => !TEMPLATE_VARIABLE_KEYS.includes(key));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

/**
 * Replaces known variables with their values: text is HTML-escaped (values come
 * from users and anonymous visitors), images become an <img> (nothing when
 * missing), and a missing text becomes ''. Unknown variables are left as
 * written so the preview shows the typo. Dates are formatted by the caller.
 */
export function fillTemplateVariables(html: string, values: Readonly<Record<string, string | null | undefined>>): string {
  return html.replace(TOKEN, (token, key: string) => {
    const variable = TEMPLATE_VARIABLES.find((candidate) => candidate.key === key);
    if (!variable) return token;
    const value = values[key];
    if (!value) return '';
    return variable.kind === 'image' ? `<img src="${escapeHtml(value)}" alt="${escapeHtml(variable.label)}" />` : escapeHtml(value);
  });
}
