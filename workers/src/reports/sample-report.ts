import type { ReportFacts } from './report-facts.js';
import { photoPng, signaturePng } from './sample-images.js';

/**
 * A realistic, made-up closure report: what the template builder's 'Preview
 * A4' renders a template with, the committed docs/report-default sample, and
 * the layout tests' fixture.
 */
export function sampleReportFacts(overrides: Partial<ReportFacts> = {}): ReportFacts {
  return {
    reportId: '3f9c2a1e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
    filename: 'rapport-LYO-2026-00042-3f9c2a1e.pdf',
    interventionOrdinal: null,
    agence: { nom: 'Agence Lyon Sécurité Incendie', adresse: '12 rue des Pompiers', codePostal: '69003', ville: 'Lyon', telephone: '04 78 00 00 00' },
    ticket: {
      numChrono: 'LYO-2026-00042',
      createdAtLabel: '02/03/2026 à 09:00',
      probleme: 'Alarme feu déclenchée sans cause apparente au 2e étage, centrale en défaut.',
      urgent: true,
      requester: { prenom: 'Claire', nom: 'Martin', email: 'claire.martin@clinique-du-parc.fr', telephone: '06 12 34 56 78' },
    },
    client: { nom: 'Clinique du Parc', adresse: '8 avenue Jean Jaurès', codePostal: '69007', ville: 'Lyon' },
    site: { nom: 'Bâtiment A', adresse: '1 rue des Lilas', codePostal: '69003', ville: 'Lyon', interlocuteur: 'Marc Petit' },
    installation: { nom: 'SSI catégorie A', type: 'Sécurité incendie', description: 'Centrale SSI 8 zones, 42 détecteurs optiques', interlocuteur: 'Julie Roux' },
    visit: {
      technicien: { prenom: 'Paul', nom: 'Durand' },
      saisiPar: null,
      arriveAtLabel: '02/03/2026 à 10:00',
      closedAtLabel: '02/03/2026 à 11:05',
      tempsTrajet: '00:35',
      dureeSurSite: '1 h 05',
      etatArrivee: 'En alarme feu',
      etatDepart: 'Fonctionnel',
      constat: 'Détecteur optique de la chambre 214 encrassé : remplacé.\nBoucle 3 testée, centrale réarmée.\nEssais de déclenchement concluants.',
      remarque: 'Prévoir le remplacement des détecteurs du 2e étage (fin de vie en 2027).',
      devis: true,
    },
    photo: new Uint8Array(photoPng()),
    signatures: {
      client: { image: new Uint8Array(signaturePng(1)), signerName: 'Claire Martin', role: 'Client (demandeur)', signedAtLabel: '02/03/2026 à 11:05' },
      technicien: { image: new Uint8Array(signaturePng(3)), signerName: 'Paul Durand', role: 'Technicien intervenant', signedAtLabel: '02/03/2026 à 11:05' },
    },
    creationDate: '2026-03-02T10:05:00.000Z',
    issuedOnLabel: '02/03/2026',
    ...overrides,
  };
}
