import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fillReportTemplate } from '../src/reports/load-report.js';
import { renderReportPdf } from '../src/reports/pdf-render.js';
import { REPORT_IMAGE_KEYS } from '../src/reports/report-facts.js';
import { createThreadRenderer } from '../src/reports/report-renderer.js';
import { pdfText } from './support/pdf-text.js';
import { signaturePng } from './support/png.js';
import { sampleReportFacts } from './support/report-fixture.js';

/*
 * Real PDFs, read back as text. poppler's pdftotext is not installed on these
 * machines: `pdfText` inflates the content streams and decodes the strings of
 * the standard (WinAnsi) fonts, which is what pdfmake writes here.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('built-in report layout', () => {
  it('prints the agency, the place, the visit, and both signatures with signer, role, date and time', async () => {
    const { pdf, templateFallback } = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: null });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(templateFallback).toBeNull();
    const text = pdfText(pdf);
    for (const expected of [
      'Agence Lyon Sécurité Incendie',
      '12 rue des Pompiers',
      'Tél. 04 78 00 00 00',
      "RAPPORT D'INTERVENTION",
      'Ticket n° LYO-2026-00042',
      'Clôture du ticket',
      'Clinique du Parc',
      'Bâtiment A',
      'SSI catégorie A',
      'Interlocuteur : Marc Petit',
      'Alarme feu déclenchée sans cause apparente',
      'Paul Durand',
      'En alarme feu',
      'Fonctionnel',
      '00:35',
      '1 h 05',
      'Détecteur optique de la chambre 214 encrassé',
      'Prévoir le remplacement des détecteurs',
      'Signé par : Claire Martin',
      'Qualité : Client (demandeur)',
      'Signé par : Paul Durand',
      'Qualité : Technicien intervenant',
      'Le 02/03/2026 à 11:05',
      'Page 1 / 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('{{');
    // Two images for the signatures and one for the photo.
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(3);
  });

  it('names a re-intervention and says when a signature file is missing', async () => {
    const facts = sampleReportFacts({ interventionOrdinal: 2, photo: null });
    facts.signatures.client = { ...facts.signatures.client, image: null };
    const text = pdfText((await renderReportPdf({ facts, templateHtml: null })).pdf);
    expect(text).toContain('Ré-intervention n° 2');
    expect(text).toContain('Signature indisponible');
    expect(text).toContain('Signé par : Claire Martin');
  });

  it('gives the same bytes, hence the same SHA-256, for the same visit', async () => {
    const first = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: null });
    const second = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: null });
    expect(sha256(second.pdf)).toBe(sha256(first.pdf));
  });
});

describe('agency template', () => {
  const template = `
    <h1>Rapport {{ticket.num_chrono}}</h1>
    <p>Client : <strong>{{client.nom}}</strong>, site <em>{{site.nom}}</em> ({{site.ville}})</p>
    <ul><li>Arrivée : {{ticket.arrive_at}}</li><li>Départ : {{ticket.clos_at}}</li></ul>
    <table><tr><th>État à l'arrivée</th><th>État au départ</th></tr><tr><td>{{ticket.etat_arrivee}}</td><td>{{ticket.etat_depart}}</td></tr></table>
    <p>Constat : {{ticket.constat_tech}}</p>
    <p>Champ inconnu : [{{ticket.inexistant}}] [{{ client.fax }}]</p>
    <p>{{ticket.photo}}</p>
    <p>{{signature.client}}</p><p>{{signature.technicien}}</p>
    <img src="/etc/passwd"><img src="http://169.254.169.254/latest/x.png">`;
  const values: Record<string, string | null> = {
    'ticket.num_chrono': 'LYO-2026-00042',
    'client.nom': 'Clinique <du> Parc',
    'site.nom': 'Bâtiment A',
    'site.ville': 'Lyon',
    'ticket.arrive_at': '02/03/2026 à 10:00',
    'ticket.clos_at': '02/03/2026 à 11:05',
    'ticket.etat_arrivee': 'En alarme feu',
    'ticket.etat_depart': 'Fonctionnel',
    'ticket.constat_tech': 'Détecteur remplacé',
    'ticket.photo': REPORT_IMAGE_KEYS.photo,
    'signature.client': REPORT_IMAGE_KEYS.signatureClient,
    'signature.technicien': REPORT_IMAGE_KEYS.signatureTechnicien,
  };

  it('fills the variables, prints unknown ones empty, keeps the evidence beside each signature', async () => {
    const html = fillReportTemplate(template, values);
    expect(html).not.toContain('{{');
    const { pdf, templateFallback } = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: html });
    expect(templateFallback).toBeNull();
    const text = pdfText(pdf);
    for (const expected of [
      'Rapport LYO-2026-00042',
      'Client : Clinique <du> Parc, site Bâtiment A (Lyon)',
      'Arrivée : 02/03/2026 à 10:00',
      'En alarme feu',
      'Fonctionnel',
      'Constat : Détecteur remplacé',
      'Champ inconnu : [] []',
      'Signé par : Claire Martin',
      'Qualité : Technicien intervenant',
      'Le 02/03/2026 à 11:05',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('{{');
    expect(text).not.toContain('}}');
    // The photo and both signatures; the file path and the URL were dropped, never fetched.
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(3);
  });

  it('falls back to the built-in layout when the template cannot be rendered', async () => {
    const broken = `<p>ok</p><img src="data:image/png;base64,${Buffer.from('not a png').toString('base64')}">`;
    const { pdf, templateFallback } = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: broken });
    expect(templateFallback).toMatch(/mise en page par défaut/);
    expect(pdfText(pdf)).toContain("RAPPORT D'INTERVENTION");
  });
});

describe('render thread', () => {
  const renderer = createThreadRenderer();
  afterAll(() => renderer.close());

  it('renders off the main event loop and gives the same bytes as in process', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const facts = sampleReportFacts();
    facts.signatures.technicien = { ...facts.signatures.technicien, image: new Uint8Array(signaturePng(3)) };
    const [fromThread] = await Promise.all([renderer.render({ facts, templateHtml: null }), renderer.render({ facts, templateHtml: null })]);
    clearInterval(timer);
    const inProcess = await renderReportPdf({ facts, templateHtml: null });
    expect(sha256(fromThread.pdf)).toBe(sha256(inProcess.pdf));
    expect(ticks).toBeGreaterThan(0);
  });
});
