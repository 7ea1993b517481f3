import { describe, expect, it } from 'vitest';
import { PDF_PLACEHOLDER, printableText } from '../src/pdf/pdf-fonts.js';
import { fillReportTemplate, technicienSigner, templateValues, visitRecordedBy } from '../src/reports/load-report.js';
import { renderReportPdf } from '../src/reports/pdf-render.js';
import type { ReportFacts } from '../src/reports/report-facts.js';
import { pdfText } from './support/pdf-text.js';
import { sampleReportFacts } from './support/report-fixture.js';

/*
 * Issue 32, "The signed report": what French users type prints as typed
 * (DejaVu Sans embedded, read back with poppler's pdftotext), what the font
 * lacks prints as a placeholder without losing the rest of the line, the
 * quote request and the urgent flag are in what the client signs, and the
 * technician's signature names who drew it.
 */

const CONSTAT = 'Mesure : résistance 4,7 kΩ ≥ 2 kΩ, cœur de boucle « conforme » — voir ½ → OK';
const EMOJI_LINE = 'Client ravi 🔥👍 puis la suite de la ligne';

function facts(overrides: Partial<ReportFacts> = {}): ReportFacts {
  const base = sampleReportFacts();
  return sampleReportFacts({ ...overrides, visit: { ...base.visit, constat: `${CONSTAT}\n${EMOJI_LINE}`, ...overrides.visit } });
}

/** A template of labelled rows, as an agency writes it, using the new variables. */
const TEMPLATE = [
  '<table><tbody>',
  '<tr><th>Technicien</th><td>{{technicien.prenom}} {{technicien.nom}}</td></tr>',
  '<tr><th>Constat</th><td>{{ticket.constat_tech}}</td></tr>',
  '<tr><th>Devis à établir</th><td>{{ticket.devis}}</td></tr>',
  '</tbody></table>',
  '<h3>Signature du technicien</h3><p>{{signature.technicien}}</p>',
].join('');

async function renderBoth(reportFacts: ReportFacts): Promise<{ builtIn: Buffer; template: Buffer }> {
  const builtIn = (await renderReportPdf({ facts: reportFacts, templateHtml: null })).pdf;
  const rendered = await renderReportPdf({ facts: reportFacts, templateHtml: fillReportTemplate(TEMPLATE, templateValues(reportFacts, 'tech-1')) });
  expect(rendered.templateFallback).toBeNull();
  return { builtIn, template: rendered.pdf };
}

describe('characters outside WinAnsi (issue 32, item 2)', () => {
  it('prints kΩ, ≥, œ, French quotes, dashes and arrows as typed, in the built-in layout and a template', async () => {
    const { builtIn, template } = await renderBoth(facts());
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).toContain('résistance 4,7 kΩ ≥ 2 kΩ');
      expect(text).toContain('cœur de boucle « conforme » — voir ½ → OK');
      expect(text).toContain('4,7 kΩ');
      expect(text).toContain('≥');
      expect(text).toContain('œ');
      expect(text).toContain('«');
      expect(text).toContain('»');
    }
  });

  it('prints an emoji as a visible placeholder and keeps the rest of the line', async () => {
    const { builtIn, template } = await renderBoth(facts());
    for (const pdf of [builtIn, template]) {
      expect(pdfText(pdf)).toContain(`Client ravi ${PDF_PLACEHOLDER}${PDF_PLACEHOLDER} puis la suite de la ligne`);
    }
  });

  it('embeds DejaVu Sans as subsets: the PDF stays small', async () => {
    const { builtIn } = await renderBoth(facts());
    const raw = builtIn.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(raw).not.toContain('/BaseFont /Helvetica');
    // The four faces whole weigh about 2.7 MB; the subsets, with the sample's images, a few tens of kB.
    expect(builtIn.length).toBeLessThan(120_000);
  });

  it('replaces, one by one, what the font has no glyph for; composes accents; keeps line breaks', () => {
    expect(printableText('a🔥b')).toBe(`a${PDF_PLACEHOLDER}b`);
    expect(printableText('❤️ merci')).toBe('❤ merci');
    expect(printableText('e\u0301té')).toBe('été');
    expect(printableText('ligne 1\nligne 2\u202F!')).toBe('ligne 1\nligne 2\u202F!');
    expect(printableText('漢字 ok')).toBe(`${PDF_PLACEHOLDER}${PDF_PLACEHOLDER} ok`);
  });
});

describe('quote request and urgent flag (issue 32, item 3)', () => {
  it('says a quote is to be drawn up and the ticket was urgent, in the built-in layout and a template', async () => {
    const base = facts();
    const { builtIn, template } = await renderBoth({ ...base, ticket: { ...base.ticket, urgent: true }, visit: { ...base.visit, devis: true } });
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).toContain('Urgent');
      expect(text).toContain('Devis à établir : oui');
    }
    expect(pdfText(template)).toMatch(/Devis à établir\s+Oui/);
  });

  it('says nothing of a quote or an urgency that were not asked for', async () => {
    const base = facts();
    const { builtIn, template } = await renderBoth({ ...base, ticket: { ...base.ticket, urgent: false }, visit: { ...base.visit, devis: false } });
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).not.toContain('Urgent');
      expect(text).not.toContain('Devis à établir : oui');
    }
    expect(pdfText(template)).toMatch(/Devis à établir\s+Non/);
  });
});

describe('who signed for the technician (issue 32, item 1)', () => {
  it('names the technician and, when a colleague recorded the visit, that colleague as signer', async () => {
    const base = facts();
    const julien = { prenom: 'Julien', nom: 'Garnier' };
    const sofia = { prenom: 'Sofia', nom: 'Moreau' };
    const reportFacts: ReportFacts = {
      ...base,
      visit: { ...base.visit, technicien: sofia, saisiPar: julien },
      signatures: { ...base.signatures, technicien: { ...base.signatures.technicien, ...technicienSigner(sofia, julien) } },
    };
    const { builtIn, template } = await renderBoth(reportFacts);
    for (const pdf of [builtIn, template]) {
      const text = pdfText(pdf);
      expect(text).toContain('Sofia Moreau');
      expect(text).toContain('Signé par : Julien Garnier');
      expect(text).toContain('Qualité : Pour le compte de Sofia Moreau');
      expect(text).not.toContain('Signé par : Sofia Moreau');
    }
    expect(pdfText(builtIn)).toMatch(/Saisi et signé par\s+Julien Garnier/);
  });

  it('takes the colleague from the visit event’s author, when not its technician; older visits have none', () => {
    const sofia = { id: 'u-sofia', prenom: 'Sofia', nom: 'Moreau' };
    const julien = { id: 'u-julien', prenom: 'Julien', nom: 'Garnier' };
    expect(visitRecordedBy({ technicien: sofia, auteur: julien })).toEqual({ prenom: 'Julien', nom: 'Garnier' });
    expect(visitRecordedBy({ technicien: sofia, auteur: sofia })).toBeNull();
    expect(visitRecordedBy({ technicien: sofia })).toBeNull();
  });

  it('names the technician as signer when they recorded the visit themselves', () => {
    expect(technicienSigner({ prenom: 'Sofia', nom: 'Moreau' }, null)).toEqual({ signerName: 'Sofia Moreau', role: 'Technicien intervenant' });
  });
});
