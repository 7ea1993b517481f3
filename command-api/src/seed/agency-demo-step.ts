import { defaultAgenceHoraires, type Agence } from '@fsm/contracts';
import { DEMO_PASSWORD, type DemoSeedStep } from './demo-seed.js';

const DEMO_SECOND_AGENCE = {
  nom: 'Agence Villeurbanne',
  adresse: '27 cours Émile Zola',
  cp_postal: '69100',
  ville: 'Villeurbanne',
  telephone: '04 72 44 10 20',
};
export const DEMO_SECOND_AGENCE_ADMIN_EMAIL = 'admin.villeurbanne@demo.fr';
export const DEMO_TEMPLATE_NAME = 'Rapport d’intervention standard';

const row = (label: string, value: string) => `<tr><th style="text-align:left">${label}</th><td>${value}</td></tr>`;

/**
 * A report layout built only from the builder's variables (`{{group.field}}`,
 * TEMPLATE_VARIABLE_GROUPS). The agency letterhead and the report's reference
 * (ticket, closure or re-intervention of such day) are printed above it by the
 * product; rows whose values are empty are left out; `{{ticket.clos_at}}` is
 * the end of the visit, which a re-intervention does not close, hence its label.
 */
export const DEMO_TEMPLATE_HTML = [
  '<h2>Client et lieu d’intervention</h2>',
  '<table><tbody>',
  row('Client', '<strong>{{client.nom}}</strong><br />{{client.adresse}}<br />{{client.code_postale}} {{client.ville}}'),
  row('Site', '<strong>{{site.nom}}</strong><br />{{site.adresse}}<br />{{site.code_postal}} {{site.ville}}'),
  row('Interlocuteur du site', '{{site.interlocuteur_princ}}'),
  row('Installation', '<strong>{{installation.nom}}</strong>'),
  row('Type', '{{installation.type}}'),
  row('Description', '{{installation.description}}'),
  row('Interlocuteur de l’installation', '{{installation.interlocuteur_princ}}'),
  '</tbody></table>',
  '<h2>Demande</h2>',
  '<table><tbody>',
  row('Demande du', '{{ticket.created_at}}'),
  row('Demandeur', '{{demandeur.prenom}} {{demandeur.nom}}'),
  row('E-mail', '{{demandeur.email}}'),
  row('Téléphone', '{{ticket.telephone}}'),
  row('Problème signalé', '{{ticket.probleme}}'),
  row('Photo', '{{ticket.photo}}'),
  '</tbody></table>',
  '<h2>Intervention</h2>',
  '<table><tbody>',
  row('Technicien', '{{technicien.prenom}} {{technicien.nom}}'),
  row('Arrivée sur site', '{{ticket.arrive_at}}'),
  row('Fin d’intervention', '{{ticket.clos_at}}'),
  row('Temps de trajet', '{{ticket.temps_trajet}}'),
  row('État à l’arrivée', '{{ticket.etat_arrivee}}'),
  row('État au départ', '{{ticket.etat_depart}}'),
  row('Constat du technicien', '{{ticket.constat_tech}}'),
  row('Remarques', '{{ticket.remarque_tech}}'),
  '</tbody></table>',
  '<h2>Signatures</h2>',
  '<table><tbody><tr>',
  '<td><strong>Signature du client</strong>{{signature.client}}</td>',
  '<td><strong>Signature du technicien</strong>{{signature.technicien}}</td>',
  '</tr></tbody></table>',
].join('');

const DEMO_TEMPLATE_CSS = [
  'body { font-family: Helvetica, Arial, sans-serif; font-size: 11pt; color: #1f2933; }',
  'h1 { font-size: 20pt; color: #b91c1c; margin-bottom: 4px; }',
  'h2 { font-size: 13pt; border-bottom: 1px solid #d1d5db; padding-bottom: 2px; margin-top: 18px; }',
  'table { width: 100%; border-collapse: collapse; }',
  'th, td { padding: 4px 6px; vertical-align: top; }',
  'th { width: 32%; color: #4b5563; font-weight: 600; }',
].join('\n');

/**
 * Agencies, télésurveillance and templates of the demo: the demo agency's
 * opening hours, a second agency with its admin, the télésurveillance account
 * on both, and a report template used by the demo agency. Runs first: later
 * steps may rely on both agencies.
 */
export const agencyDemoStep: DemoSeedStep = {
  name: 'agences, télésurveillance et modèles',
  async run(client, _deps, { agenceId }) {
    await client.call('admin_plus', 'PUT', `/api/agences/${agenceId}/horaires`, defaultAgenceHoraires());

    const villeurbanne = await client.call<Agence>('admin_plus', 'POST', '/api/agences', DEMO_SECOND_AGENCE);
    await client.call('admin_plus', 'POST', '/api/utilisateurs', {
      nom: 'Roux',
      prenom: 'Nadia',
      email: DEMO_SECOND_AGENCE_ADMIN_EMAIL,
      telephone: '06 22 33 44 55',
      role: 'admin',
      agence_id: villeurbanne.id,
      motdepasse: DEMO_PASSWORD,
    });

    await client.call('admin_plus', 'PUT', `/api/telesurv/${client.as('telesurveillance').userId}/agences`, { agences: [agenceId, villeurbanne.id] });

    const template = await client.call<{ id: string }>('admin_plus', 'POST', '/api/templates', {
      name: DEMO_TEMPLATE_NAME,
      content_html: DEMO_TEMPLATE_HTML,
      css: DEMO_TEMPLATE_CSS,
    });
    const agences = await client.call<Agence[]>('admin_plus', 'GET', '/api/agences');
    const demo = agences.find((agence) => agence.id === agenceId);
    if (!demo) throw new Error('demo seed: the demo agency is missing');
    // As the template builder's 'Agence' action does: the whole agency, id_template set.
    await client.call('admin_plus', 'PUT', `/api/agences/${agenceId}`, { ...demo, id_template: template.id });
  },
};
