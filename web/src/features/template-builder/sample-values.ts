import { fillTemplateVariables } from '@fsm/contracts';
import { formatDateTime } from '../../lib/format';

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

const SIGNATURE = (stroke: string) =>
  svgDataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="80" viewBox="0 0 220 80"><path d="M10 60 C40 10 60 70 90 35 S140 20 150 55 S190 30 210 40" fill="none" stroke="${stroke}" stroke-width="3" stroke-linecap="round"/></svg>`,
  );

const PHOTO = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160"><rect width="240" height="160" fill="#e4e8ee"/><path d="M20 140 L90 60 L140 110 L170 85 L220 140 Z" fill="#9aa5b4"/><circle cx="180" cy="45" r="18" fill="#d4a000"/></svg>',
);

/**
 * A made-up closed ticket, so the preview shows a filled report. Values are
 * those of the template variables (management §3), dates already formatted.
 */
export const SAMPLE_TEMPLATE_VALUES: Readonly<Record<string, string>> = {
  'ticket.num_chrono': 'LYO-2026-0042',
  'ticket.id_technicien': '55555555-5555-4555-8555-555555555551',
  'ticket.nom': 'Bernard',
  'ticket.prenom': 'Julie',
  'ticket.probleme': 'Alarme incendie en dérangement au niveau 2',
  'ticket.photo': PHOTO,
  'ticket.created_at': formatDateTime('2026-03-10T08:00:00Z'),
  'ticket.arrive_at': formatDateTime('2026-03-10T09:30:00Z'),
  'ticket.temps_trajet': '00:30',
  'ticket.etat_arrivee': 'En dérangement',
  'ticket.etat_depart': 'Fonctionnel',
  'ticket.clos_at': formatDateTime('2026-03-10T10:15:00Z'),
  'ticket.email': 'julie.bernard@example.fr',
  'ticket.telephone': '06 12 34 56 78',
  'ticket.constat_tech': 'Détecteur optique encrassé en zone 4, remplacé et testé.',
  'ticket.remarque_tech': 'Prévoir le contrôle annuel des détecteurs du niveau 2.',
  'technicien.nom': 'Petit',
  'technicien.prenom': 'Lucie',
  'demandeur.nom': 'Bernard',
  'demandeur.prenom': 'Julie',
  'demandeur.email': 'julie.bernard@example.fr',
  'client.nom': 'Hôpital Nord',
  'client.adresse': '12 avenue des Tilleuls',
  'client.ville': 'Lyon',
  'client.code_postale': '69004',
  'client.telephone': '04 72 00 00 00',
  'site.nom': 'Bâtiment A',
  'site.adresse': '1 rue de la Paix',
  'site.ville': 'Lyon',
  'site.code_postal': '69001',
  'site.interlocuteur_princ': 'Marc Roux',
  'installation.nom': 'SSI catégorie A',
  'installation.interlocuteur_princ': 'Sophie Martin',
  'installation.type': 'Sécurité incendie',
  'installation.description': 'Système de sécurité incendie, 48 détecteurs',
  'signature.client': SIGNATURE('#1849a9'),
  'signature.technicien': SIGNATURE('#18212e'),
};

/**
 * The A4 page (1200 × 1123 px) as a standalone document for a sandboxed
 * iframe: the content with the sample values, the template's CSS after a
 * neutral base. `<` is taken out of the CSS so it cannot close its <style>.
 */
export function previewDocument(contentHtml: string, css: string): string {
  const body = fillTemplateVariables(contentHtml, SAMPLE_TEMPLATE_VALUES);
  const safeCss = css.replace(/</g, '\\3C ');
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><style>
html,body{margin:0}
body{box-sizing:border-box;width:1200px;min-height:1123px;padding:48px 56px;font:15px/1.45 Helvetica,Arial,sans-serif;color:#18212e;background:#fff}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d5dbe3;padding:6px 8px;vertical-align:top}
img{max-width:100%}
${safeCss}
</style></head><body>${body}</body></html>`;
}
