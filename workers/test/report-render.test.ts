import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { craftedJpeg, craftedPng } from '@fsm/contracts/test-support';
import { clientSigner, fillReportTemplate, templateValues } from '../src/reports/load-report.js';
import { renderReportPdf } from '../src/reports/pdf-render.js';
import { IMAGE_TOO_LARGE_TEXT, REPORT_IMAGE_KEYS } from '../src/reports/report-facts.js';
import { RenderStoppedError, createThreadRenderer, type ThreadRendererOptions } from '../src/reports/report-renderer.js';
import { pngChunk } from '../src/reports/sample-images.js';
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
    expect(text).toContain('Ré-intervention du 02/03/2026 (n° 2)');
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

/*
 * Issue 18: what the client receives must read like a maintenance company's
 * report. The demo agency's own template is checked the same way in
 * command-api/test/demo-report-template.test.ts.
 */
const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
const occurrences = (text: string, wanted: string) => text.split(wanted).length - 1;
const MULTI_LINE_CONSTAT = 'Détecteur de la chambre 214 encrassé : remplacé.\nBoucle 3 testée, centrale réarmée.\r\nEssais concluants.';

function visitFacts(options: { reintervention?: boolean; sparse?: boolean } = {}) {
  const base = sampleReportFacts();
  const facts = sampleReportFacts({
    interventionOrdinal: options.reintervention ? 1 : null,
    visit: { ...base.visit, constat: MULTI_LINE_CONSTAT },
  });
  if (options.sparse) {
    facts.agence = { ...facts.agence!, telephone: '' };
    facts.ticket = { ...facts.ticket, requester: { ...facts.ticket.requester, telephone: '' } };
    facts.site = { ...facts.site, interlocuteur: '' };
    facts.installation = { ...facts.installation, interlocuteur: '', description: '' };
    facts.photo = null;
  }
  return facts;
}

/** Labelled rows as an agency would write them in the builder, one variable per row. */
const ROWS_TEMPLATE = [
  '<h1>Rapport</h1>',
  '<table><tbody>',
  '<tr><th>Client</th><td>{{client.nom}}</td></tr>',
  '<tr><th>Téléphone</th><td>{{client.telephone}}</td></tr>',
  '<tr><th>Interlocuteur de l’installation</th><td>{{installation.interlocuteur_princ}}</td></tr>',
  '<tr><th>Photo</th><td>{{ticket.photo}}</td></tr>',
  '<tr><th>Fin d’intervention</th><td>{{ticket.clos_at}}</td></tr>',
  '<tr><th>Constat du technicien</th><td>{{ticket.constat_tech}}</td></tr>',
  '</tbody></table>',
  '<h2>Signatures</h2>',
  '<table><tbody>',
  '<tr><th>Signature du client</th><th>Signature du technicien</th></tr>',
  '<tr><td>{{signature.client}}</td><td>{{signature.technicien}}</td></tr>',
  '</tbody></table>',
].join('');

async function renderBoth(facts: ReturnType<typeof visitFacts>) {
  const builtIn = await renderReportPdf({ facts, templateHtml: null });
  const template = await renderReportPdf({ facts, templateHtml: fillReportTemplate(ROWS_TEMPLATE, templateValues(facts, 'tech-1')) });
  expect(template.templateFallback).toBeNull();
  return { builtIn: builtIn.pdf, template: template.pdf };
}

describe('a report a client receives (issue 18)', () => {
  it('fits one page for a one-visit report with both signatures, closure and re-intervention', async () => {
    for (const reintervention of [false, true]) {
      const { builtIn, template } = await renderBoth(visitFacts({ reintervention }));
      expect(pageCount(builtIn)).toBe(1);
      expect(pageCount(template)).toBe(1);
      expect(pdfText(builtIn)).toContain('Page 1 / 1');
    }
  });

  it('keeps the line breaks of a multi-line constat', async () => {
    const { builtIn, template } = await renderBoth(visitFacts());
    for (const pdf of [builtIn, template]) {
      const lines = pdfText(pdf).split('\n');
      expect(lines.some((line) => line.endsWith('Détecteur de la chambre 214 encrassé : remplacé.'))).toBe(true);
      expect(lines).toContain('Boucle 3 testée, centrale réarmée.');
      expect(lines).toContain('Essais concluants.');
    }
  });

  it('prints each signature heading once, the evidence under it', async () => {
    const { builtIn, template } = await renderBoth(visitFacts());
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(occurrences(text, 'Signature du client')).toBe(1);
      expect(occurrences(text, 'Signature du technicien')).toBe(1);
      expect(text).toContain('Signé par : Claire Martin');
    }
  });

  it('prints no label with nothing beside it: no phone, no contact, no photo rows when they are empty', async () => {
    const { builtIn, template } = await renderBoth(visitFacts({ sparse: true }));
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).not.toContain('Tél.');
      expect(text).not.toContain('Téléphone');
      expect(text).not.toContain('Interlocuteur');
      expect(text).not.toContain('Photo');
      expect(text).toContain('Clinique du Parc');
    }
    // The same template with the values present prints the rows.
    const full = pdfText((await renderBoth(visitFacts())).template);
    expect(full).toMatch(/Interlocuteur de l’installation\s+Julie Roux/);
    expect(full).toContain('Photo');
  });

  it('leaves out a label whose variables are all empty, wherever the template wrote it: a paragraph, a list item, a line of a cell', async () => {
    const sparse = visitFacts({ sparse: true });
    const facts = { ...sparse, visit: { ...sparse.visit, remarque: '' } };
    const template = [
      '<p>Téléphone du demandeur : {{ticket.telephone}}</p>',
      '<ul><li>Interlocuteur : {{site.interlocuteur_princ}} {{installation.interlocuteur_princ}}</li><li>Site : {{site.nom}}</li></ul>',
      '<table><tbody><tr><th>Client</th><td>{{client.nom}}<br />Tél. {{client.telephone}}<br />{{client.ville}}</td></tr></tbody></table>',
      '<p>Photo : {{ticket.photo}}</p>',
      // A sentence of the template is kept even when its variable is empty; so is a label beside a filled one.
      '<p>Nous restons à votre disposition pour toute question sur cette intervention et sur le suivi du matériel. {{ticket.remarque_tech}}</p>',
      '<p>Description : {{installation.description}} — {{installation.nom}}</p>',
    ].join('');
    const { pdf, templateFallback } = await renderReportPdf({ facts, templateHtml: fillReportTemplate(template, templateValues(facts, 'tech-1')) });
    expect(templateFallback).toBeNull();
    const text = pdfText(pdf);
    for (const gone of ['Téléphone', 'Interlocuteur', 'Tél.', 'Photo']) expect(text).not.toContain(gone);
    for (const kept of ['Site : Bâtiment A', 'Clinique du Parc', 'Lyon', 'Nous restons à votre disposition', 'Description : — SSI catégorie A']) expect(text).toContain(kept);
    expect(text).not.toMatch(/[\uE000\uE001]/);
  });

  it("says 'Ré-intervention du …' on a re-intervention's report, never that the ticket was closed", async () => {
    const { builtIn, template } = await renderBoth(visitFacts({ reintervention: true }));
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).toContain('Ré-intervention du 02/03/2026');
      expect(text).not.toMatch(/Clôtur/);
    }
    expect(pdfText((await renderBoth(visitFacts())).builtIn)).toContain('Clôture du ticket');
  });

  it('opens every report, template or not, with the agency letterhead: name, address and phone', async () => {
    const { builtIn, template } = await renderBoth(visitFacts());
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      for (const expected of ['Agence Lyon Sécurité Incendie', '12 rue des Pompiers', '69003 Lyon', 'Tél. 04 78 00 00 00', 'Ticket n° LYO-2026-00042']) {
        expect(text).toContain(expected);
      }
    }
  });

  it("prints the client's signer as typed in the wizard, else the requester", async () => {
    const requester = { prenom: 'Claire', nom: 'Martin' };
    expect(clientSigner(requester, {})).toEqual({ signerName: 'Claire Martin', role: 'Client (demandeur)' });
    expect(clientSigner(requester, { signataireNom: 'Claire Martin' })).toEqual({ signerName: 'Claire Martin', role: 'Client (demandeur)' });
    expect(clientSigner(requester, { signataireNom: 'Marc Petit' })).toEqual({ signerName: 'Marc Petit', role: 'Client' });
    const signer = clientSigner(requester, { signataireNom: 'Marc Petit', signataireQualite: 'Responsable sécurité' });
    expect(signer).toEqual({ signerName: 'Marc Petit', role: 'Responsable sécurité' });

    const facts = visitFacts();
    facts.signatures.client = { ...facts.signatures.client, ...signer };
    const { builtIn, template } = await renderBoth(facts);
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).toContain('Signé par : Marc Petit');
      expect(text).toContain('Qualité : Responsable sécurité');
      expect(text).not.toContain('Signé par : Claire Martin');
    }
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

/*
 * Issue 17: hostile images and heavy templates never stall reports. pdfkit
 * decodes a PNG with alpha whole, in JavaScript (png-js): the class pdfmake's
 * pdfkit loaded is spied on, to see what was decoded and what was not.
 */
const PngJs = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('png-js') as { prototype: { decodePixels(...args: unknown[]): unknown } };

/** A real, half-transparent RGBA PNG: pdfkit must decode it to split its alpha out. */
function translucentPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const placeholders = (text: string) => text.replace(/\s+/g, ' ').split(IMAGE_TOO_LARGE_TEXT).length - 1;

describe('images over the budget', () => {
  const decodePixels = vi.spyOn(PngJs.prototype, 'decodePixels');
  afterEach(() => decodePixels.mockClear());
  afterAll(() => decodePixels.mockRestore());

  it('(the spy sees pdfkit decode a translucent signature within the budget)', async () => {
    const facts = sampleReportFacts();
    facts.signatures.client = { ...facts.signatures.client, image: new Uint8Array(translucentPng(120, 40)) };
    const { pdf } = await renderReportPdf({ facts, templateHtml: null });
    expect(decodePixels).toHaveBeenCalledTimes(1);
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(4); // photo, two signatures, the soft mask
  });

  it('prints a placeholder, never decoding them, for a photo and signatures whose headers declare too much', async () => {
    const facts = sampleReportFacts({ photo: new Uint8Array(craftedPng(12_000, 12_000)) });
    facts.signatures.client = { ...facts.signatures.client, image: new Uint8Array(craftedJpeg(12_000, 12_000)) };
    // 20 Mpx RGBA: within what the API takes, but 80 MB of pixels for pdfkit to decode.
    facts.signatures.technicien = { ...facts.signatures.technicien, image: new Uint8Array(craftedPng(5000, 4000)) };
    const { pdf, templateFallback } = await renderReportPdf({ facts, templateHtml: null });
    expect(templateFallback).toBeNull();
    const text = pdfText(pdf);
    expect(placeholders(text)).toBe(3);
    expect(text).toContain('Photo jointe à la demande');
    expect(text).toContain('Signé par : Claire Martin');
    expect(text).toContain('Signé par : Paul Durand');
    expect(pdf.toString('latin1')).not.toContain('/Subtype /Image');
    expect(decodePixels).not.toHaveBeenCalled();
  });

  it('embeds an opaque PNG of the same size as is: pdfkit copies it undecoded', async () => {
    const facts = sampleReportFacts({ photo: new Uint8Array(craftedPng(5000, 4000, { colorType: 2 })) });
    const { pdf } = await renderReportPdf({ facts, templateHtml: null });
    expect(pdf.toString('latin1')).toContain('/Width 5000');
    expect(placeholders(pdfText(pdf))).toBe(0);
    expect(decodePixels).not.toHaveBeenCalled();
  });

  it('does the same in an agency template, for the photo variable and an inline image', async () => {
    const facts = sampleReportFacts({ photo: new Uint8Array(craftedPng(12_000, 12_000)) });
    const html = fillReportTemplate(
      `<p>Photo : {{ticket.photo}}</p><p>Logo : <img src="data:image/png;base64,${craftedPng(20_000, 400).toString('base64')}"></p><p>{{signature.technicien}}</p>`,
      { 'ticket.photo': REPORT_IMAGE_KEYS.photo, 'signature.technicien': REPORT_IMAGE_KEYS.signatureTechnicien },
    );
    const { pdf, templateFallback } = await renderReportPdf({ facts, templateHtml: html });
    expect(templateFallback).toBeNull();
    const text = pdfText(pdf);
    expect(placeholders(text)).toBe(2);
    expect(text).toContain('Signé par : Paul Durand');
    // The technician's signature (within the budget) only.
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(1);
    expect(decodePixels).not.toHaveBeenCalled();
  });
});

describe('render thread limits', () => {
  // ~1 MB of table rows, the largest template content the API takes: a 250-page PDF, seconds of work, ~500 MB of heap.
  const heavy = `<table>${'<tr><td>Détecteur optique</td><td>Chambre 214</td><td>OK</td><td>Remplacé</td></tr>'.repeat(12_000)}</table>`;
  const renderers: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(renderers.map((renderer) => renderer.close())));
  const limited = (options: ThreadRendererOptions) => {
    const stopped: string[] = [];
    const renderer = createThreadRenderer({ ...options, onThreadStopped: ({ reason }) => stopped.push(reason) });
    renderers.push(renderer);
    return { renderer, stopped };
  };
  const report = () => ({ facts: sampleReportFacts(), templateHtml: null });

  it('terminates a render over its time budget, while the other thread goes on; the next render gets a new thread', async () => {
    const { renderer, stopped } = limited({ timeoutMs: 2_000, threads: 2 });
    const finished: string[] = [];
    const [error, quick] = await Promise.all([
      renderer.render({ facts: sampleReportFacts(), templateHtml: heavy }).then(
        () => finished.push('heavy'),
        (caught: unknown) => (finished.push('heavy stopped'), caught),
      ),
      renderer.render(report()).then((rendered) => (finished.push('report'), rendered)),
    ]);
    expect(finished).toEqual(['report', 'heavy stopped']);
    expect(quick.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(error).toBeInstanceOf(RenderStoppedError);
    expect((error as RenderStoppedError).reason).toBe('timeout');
    expect((error as Error).message).toBe('Rendu interrompu : plus de 2 s de calcul.');
    expect(stopped).toEqual(['timeout']);
    for (let i = 0; i < 3; i++) expect(pdfText((await renderer.render(report())).pdf)).toContain("RAPPORT D'INTERVENTION");
    expect(stopped).toEqual(['timeout']);
  }, 60_000);

  it('stops a thread that goes over its heap; the next render gets a new one', async () => {
    const { renderer, stopped } = limited({ maxHeapMb: 96 });
    const error = await renderer.render({ facts: sampleReportFacts(), templateHtml: heavy }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RenderStoppedError);
    expect((error as Error).message).toBe('Rendu interrompu : plus de 96 Mo de mémoire.');
    expect(stopped).toEqual(['memory']);
    expect(pdfText((await renderer.render(report())).pdf)).toContain("RAPPORT D'INTERVENTION");
  }, 60_000);

  it('stops a render its caller gave up on', async () => {
    const { renderer, stopped } = limited({});
    await renderer.render(report()); // the thread is up: the next render starts at once
    const caller = new AbortController();
    const pending = renderer.render({ facts: sampleReportFacts(), templateHtml: heavy }, { signal: caller.signal });
    setTimeout(() => caller.abort(), 300);
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RenderStoppedError);
    expect((error as RenderStoppedError).reason).toBe('cancelled');
    expect(stopped).toEqual(['cancelled']);
    expect(pdfText((await renderer.render(report())).pdf)).toContain("RAPPORT D'INTERVENTION");
  }, 60_000);
});
