import { afterAll, describe, expect, it } from 'vitest';
import { clientSigner, createInProcessRenderer, fillReportTemplate, sampleReportFacts, templateValues, type ReportFacts } from '@fsm/workers';
import { pdfText } from '@fsm/workers/test-support';
import { DEMO_TEMPLATE_HTML } from '../src/seed/agency-demo-step.js';

/*
 * Issue 18: the demo agency's template ('Rapport d’intervention standard'),
 * the one the demo's reports print with, read back from its PDF as a client
 * would read it.
 */

const renderer = await createInProcessRenderer();
afterAll(() => renderer.close());

const pageCount = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;

function visitFacts(options: { reintervention?: boolean; sparse?: boolean } = {}): ReportFacts {
  const base = sampleReportFacts();
  const facts = sampleReportFacts({
    interventionOrdinal: options.reintervention ? 1 : null,
    visit: { ...base.visit, constat: 'Détecteur de la chambre 214 encrassé : remplacé.\nBoucle 3 testée, centrale réarmée.\nEssais concluants.' },
  });
  if (options.sparse) {
    facts.ticket = { ...facts.ticket, requester: { ...facts.ticket.requester, telephone: '' } };
    facts.site = { ...facts.site, interlocuteur: '' };
    facts.installation = { ...facts.installation, interlocuteur: '' };
    facts.photo = null;
  }
  return facts;
}

async function render(facts: ReportFacts) {
  const rendered = await renderer.render({ facts, templateHtml: fillReportTemplate(DEMO_TEMPLATE_HTML, templateValues(facts, 'tech-1')) });
  expect(rendered.templateFallback).toBeNull();
  return { pdf: Buffer.from(rendered.pdf), text: pdfText(Buffer.from(rendered.pdf)) };
}

describe('the demo agency’s report template', () => {
  it('prints a one-visit report with its photo and both signatures on one page, closure and re-intervention', async () => {
    for (const reintervention of [false, true]) {
      const { pdf, text } = await render(visitFacts({ reintervention }));
      expect(pageCount(pdf)).toBe(1);
      expect(text).toContain('Page 1 / 1');
    }
  });

  it('opens with the agency letterhead and keeps the constat’s line breaks', async () => {
    const { text } = await render(visitFacts());
    for (const expected of ['Agence Lyon Sécurité Incendie', '12 rue des Pompiers', 'Tél. 04 78 00 00 00', 'Ticket n° LYO-2026-00042', 'Clôture du ticket']) {
      expect(text).toContain(expected);
    }
    const lines = text.split('\n');
    expect(lines).toContain('Boucle 3 testée, centrale réarmée.');
    expect(lines).toContain('Essais concluants.');
  });

  it('prints each signature heading once, with the signer typed in the wizard under it', async () => {
    const facts = visitFacts();
    facts.signatures.client = { ...facts.signatures.client, ...clientSigner(facts.ticket.requester, { signataireNom: 'Marc Petit', signataireQualite: 'Responsable sécurité' }) };
    const { text } = await render(facts);
    expect(text.split('Signature du client').length - 1).toBe(1);
    expect(text.split('Signature du technicien').length - 1).toBe(1);
    expect(text).toContain('Signé par : Marc Petit');
    expect(text).toContain('Qualité : Responsable sécurité');
  });

  it('leaves out the rows with nothing to print: phone, contacts, photo', async () => {
    const { pdf, text } = await render(visitFacts({ sparse: true }));
    for (const label of ['Tél. 06', 'Téléphone', 'Interlocuteur du site', 'Interlocuteur de l’installation', 'Photo']) expect(text).not.toContain(label);
    expect(text).toContain('Problème signalé');
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(2);
  });

  it("says 'Ré-intervention du …' on a re-intervention, never that the ticket was closed", async () => {
    const { text } = await render(visitFacts({ reintervention: true }));
    expect(text).toContain('Ré-intervention du 02/03/2026');
    expect(text).toContain('Fin d’intervention');
    expect(text).not.toMatch(/Clôtur/);
  });
});
