import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { PDF_FONT_FAMILY } from '../pdf/pdf-fonts.js';
import { withoutOpaqueAlpha } from './opaque-png.js';
import { IMAGE_TOO_LARGE_TEXT, REPORT_IMAGE_KEYS, isEmbeddableImage, reportImageUse, type ReportAddress, type ReportFacts, type ReportSignatureFacts } from './report-facts.js';

/*
 * The built-in layout: a French intervention report on one A4 page when the
 * texts are short. Used when the agency has no template, or when its template
 * cannot be rendered.
 */

const PRIMARY = '#a61b1b';
const MUTED = '#5f6368';
const RULE = '#d0d4d9';
const SHADE = '#f4f5f7';
const NONE = '—';

const orDash = (value: string | null | undefined): string => (value && value.trim() !== '' ? value : NONE);
const fullName = (person: { prenom: string; nom: string }): string => [person.prenom, person.nom].filter((part) => part.trim() !== '').join(' ');

function addressLines(address: ReportAddress): string[] {
  const city = [address.codePostal, address.ville].filter((part) => part.trim() !== '').join(' ');
  return [address.adresse, city].filter((line) => line.trim() !== '');
}

function sectionTitle(title: string): Content {
  return {
    table: { widths: ['*'], body: [[{ text: title.toUpperCase(), style: 'sectionTitle', fillColor: PRIMARY, margin: [6, 3, 6, 3] }]] },
    layout: 'noBorders',
    margin: [0, 10, 0, 5],
  };
}

function field(label: string, value: string): Content {
  return { stack: [{ text: label, style: 'label' }, { text: orDash(value), style: 'value' }], margin: [0, 0, 0, 6] };
}

/** Thin grey rules: the tables of both layouts. */
export const lightGrid = {
  hLineWidth: () => 0.5,
  vLineWidth: () => 0.5,
  hLineColor: () => RULE,
  vLineColor: () => RULE,
  paddingLeft: () => 6,
  paddingRight: () => 6,
  paddingTop: () => 4,
  paddingBottom: () => 4,
};

/**
 * What the visit was: a re-intervention leaves the ticket open, so its report
 * never says the ticket was closed.
 */
function visitLabel(facts: ReportFacts): string {
  return facts.interventionOrdinal === null ? 'Clôture du ticket' : `Ré-intervention du ${facts.issuedOnLabel} (n° ${facts.interventionOrdinal})`;
}

/**
 * What the client signs up to beyond the visit itself (issue 32): the ticket
 * was urgent, a quote is to be drawn up. In the letterhead, so an agency
 * template that names neither still says it.
 */
function visitFlags(facts: ReportFacts): Content[] {
  const flags = [...(facts.ticket.urgent ? ['Urgent'] : []), ...(facts.visit.devis ? ['Devis à établir : oui'] : [])];
  return flags.length === 0 ? [] : [{ text: flags.join(' · '), style: 'flags' }];
}

function header(facts: ReportFacts): Content {
  const agence = facts.agence;
  const left: Content[] = agence
    ? [
        { text: agence.nom, style: 'agency' },
        ...addressLines(agence).map((line): Content => ({ text: line, style: 'agencyLine' })),
        ...(agence.telephone.trim() !== '' ? [{ text: `Tél. ${agence.telephone}`, style: 'agencyLine' } as Content] : []),
      ]
    : [{ text: 'Maintenance sécurité incendie', style: 'agency' }];
  return {
    columns: [
      { width: '*', stack: left },
      {
        width: 'auto',
        alignment: 'right',
        stack: [
          { text: "RAPPORT D'INTERVENTION", style: 'title' },
          { text: `Ticket n° ${facts.ticket.numChrono}`, style: 'reference' },
          // One line for the visit and the date, so the flags below add no height to the letterhead.
          { text: `${visitLabel(facts)} · établi le ${facts.issuedOnLabel}`, style: 'agencyLine' },
          ...visitFlags(facts),
        ],
      },
    ],
  };
}

function rule(): Content {
  return { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 1.5, lineColor: PRIMARY }], margin: [0, 8, 0, 0] };
}

/** The letterhead (agency name, address, phone) and the report's reference: the same on every report, built-in layout or agency template. */
export function reportHeader(facts: ReportFacts): Content[] {
  return [header(facts), rule()];
}

function placeSection(facts: ReportFacts): Content[] {
  const column = (title: string, lines: Content[]): Content => ({ width: '*', stack: [{ text: title, style: 'label' }, ...lines] }) as Content;
  return [
    sectionTitle('Client et lieu d’intervention'),
    {
      columns: [
        column('Client', [{ text: facts.client.nom, style: 'strong' }, ...addressLines(facts.client).map((line): Content => ({ text: line, style: 'value' }))]),
        column('Site', [
          { text: facts.site.nom, style: 'strong' },
          ...addressLines(facts.site).map((line): Content => ({ text: line, style: 'value' })),
          ...(facts.site.interlocuteur ? [{ text: `Interlocuteur : ${facts.site.interlocuteur}`, style: 'value' } as Content] : []),
        ]),
        column('Installation', [
          { text: facts.installation.nom, style: 'strong' },
          ...(facts.installation.type ? [{ text: facts.installation.type, style: 'value' } as Content] : []),
          ...(facts.installation.description ? [{ text: facts.installation.description, style: 'value' } as Content] : []),
          ...(facts.installation.interlocuteur ? [{ text: `Interlocuteur : ${facts.installation.interlocuteur}`, style: 'value' } as Content] : []),
        ]),
      ],
      columnGap: 14,
    },
  ];
}

function requestSection(facts: ReportFacts): Content[] {
  const requester = facts.ticket.requester;
  const contact = [requester.email, requester.telephone].filter((part) => part.trim() !== '').map((line): Content => ({ text: line, style: 'value' }));
  const details: Content = {
    width: '*',
    stack: [
      {
        columns: [
          { width: 120, stack: [field('Demande du', facts.ticket.createdAtLabel), ...(facts.ticket.urgent ? [field('Priorité', 'Urgent')] : [])] },
          { width: '*', stack: [{ text: 'Demandeur', style: 'label' }, { text: orDash(fullName(requester)), style: 'value' }, ...contact] },
        ],
        columnGap: 10,
      },
      field('Problème signalé', facts.ticket.probleme),
    ],
  } as Content;
  const use = reportImageUse(facts.photo);
  if (use === 'absent') return [sectionTitle('Demande'), details];
  const picture: Content =
    use === 'embed' ? { image: REPORT_IMAGE_KEYS.photo, fit: [170, 112], margin: [0, 2, 0, 0] } : { text: IMAGE_TOO_LARGE_TEXT, style: 'muted', margin: [0, 2, 0, 0] };
  const photo = { width: 170, stack: [{ text: 'Photo jointe à la demande', style: 'label' }, picture] } as Content;
  return [sectionTitle('Demande'), { columns: [details, photo], columnGap: 14 }];
}

function interventionSection(facts: ReportFacts): Content[] {
  const v = facts.visit;
  const row = (a: string, b: string, c: string, d: string): TableCell[] => [
    { text: a, style: 'label', fillColor: SHADE },
    { text: orDash(b), style: 'value' },
    { text: c, style: 'label', fillColor: SHADE },
    { text: orDash(d), style: 'value' },
  ];
  return [
    sectionTitle('Intervention'),
    {
      table: {
        widths: [95, '*', 95, '*'],
        body: [
          row('Technicien', fullName(v.technicien), 'Devis à établir', v.devis ? 'Oui' : 'Non'),
          ...(v.saisiPar === null
            ? []
            : [
                [
                  { text: 'Saisi et signé par', style: 'label', fillColor: SHADE },
                  { text: fullName(v.saisiPar), style: 'value', colSpan: 3 },
                  {},
                  {},
                ] as TableCell[],
              ]),
          row('Arrivée sur site', v.arriveAtLabel, 'Fin d’intervention', v.closedAtLabel),
          row('Temps de trajet', v.tempsTrajet, 'Durée sur site', v.dureeSurSite),
          row('État à l’arrivée', v.etatArrivee, 'État au départ', v.etatDepart),
        ],
      },
      layout: lightGrid,
    },
    { text: 'Constat du technicien', style: 'subTitle' },
    textBox(v.constat),
    { text: 'Remarques', style: 'subTitle' },
    textBox(v.remarque.trim() === '' ? 'Aucune remarque.' : v.remarque),
  ];
}

function textBox(text: string): Content {
  return { table: { widths: ['*'], body: [[{ text, style: 'value' }]] }, layout: lightGrid };
}

/**
 * The image with, under it, who signed, in which role, and when: the evidence
 * the report carries. title null: the template prints its own heading.
 */
export function signatureBlock(title: string | null, signature: ReportSignatureFacts, imageKey: string): Content {
  const use = reportImageUse(signature.image);
  const image: Content =
    use === 'embed'
      ? { image: imageKey, fit: [210, 64], alignment: 'center', margin: [0, 4, 0, 4] }
      : { text: use === 'too-large' ? IMAGE_TOO_LARGE_TEXT : 'Signature indisponible', style: 'muted', alignment: 'center', margin: [0, 30, 0, 30] };
  return {
    stack: [
      ...(title === null ? [] : [{ text: title, style: 'strong' } as Content]),
      image,
      { text: `Signé par : ${orDash(signature.signerName)}`, style: 'value' },
      { text: `Qualité : ${signature.role}`, style: 'value' },
      { text: `Le ${signature.signedAtLabel}`, style: 'value' },
    ],
  };
}

function signatureSection(facts: ReportFacts): Content[] {
  return [
    {
      unbreakable: true,
      stack: [
        sectionTitle('Signatures'),
        {
      table: {
        widths: ['*', '*'],
        body: [
          [
            signatureBlock('Signature du client', facts.signatures.client, REPORT_IMAGE_KEYS.signatureClient),
            signatureBlock('Signature du technicien', facts.signatures.technicien, REPORT_IMAGE_KEYS.signatureTechnicien),
          ],
        ],
      },
      layout: lightGrid,
        },
      ],
    } as Content,
  ];
}

export function defaultReportContent(facts: ReportFacts): Content[] {
  return [
    ...reportHeader(facts),
    ...placeSection(facts),
    ...requestSection(facts),
    ...interventionSection(facts),
    ...signatureSection(facts),
  ];
}

/**
 * Images referenced by key, for pdfmake's `images` dictionary (0.3 takes URLs
 * there: data URLs, so nothing is fetched). Opaque PNGs (the signature pad's)
 * lose their alpha channel first: same picture, half the time to embed.
 */
function reportImages(facts: ReportFacts): Record<string, string> {
  const images: Record<string, string> = {};
  const add = (key: string, original: Uint8Array | null) => {
    if (!isEmbeddableImage(original)) return;
    const bytes = withoutOpaqueAlpha(original);
    const mime = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
    images[key] = `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  };
  add(REPORT_IMAGE_KEYS.photo, facts.photo);
  add(REPORT_IMAGE_KEYS.signatureClient, facts.signatures.client.image);
  add(REPORT_IMAGE_KEYS.signatureTechnicien, facts.signatures.technicien.image);
  return images;
}

/** Page, fonts, styles, footer and metadata shared by the built-in layout and agency templates. */
export function reportDocument(facts: ReportFacts, content: Content[]): TDocumentDefinitions {
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 56],
    info: {
      title: `Rapport d'intervention ${facts.ticket.numChrono}`,
      subject: visitLabel(facts),
      author: facts.agence?.nom ?? 'Maintenance sécurité incendie',
      creator: 'fsm-tickets',
      producer: 'fsm-tickets',
      creationDate: new Date(facts.creationDate),
    },
    content,
    images: reportImages(facts),
    footer: (currentPage: number, pageCount: number): Content => ({
      columns: [
        { text: `${facts.filename} · réf. ${facts.reportId}`, style: 'footer' },
        { text: `Page ${currentPage} / ${pageCount}`, style: 'footer', alignment: 'right', width: 'auto' },
      ],
      margin: [40, 20, 40, 0],
    }),
    defaultStyle: { font: PDF_FONT_FAMILY, fontSize: 9.5, lineHeight: 0.92, color: '#202124' },
    styles: {
      agency: { fontSize: 14, bold: true, color: PRIMARY, margin: [0, 0, 0, 2] },
      agencyLine: { fontSize: 9, color: MUTED },
      title: { fontSize: 16, bold: true, color: '#202124' },
      reference: { fontSize: 11, bold: true, color: PRIMARY, margin: [0, 2, 0, 2] },
      flags: { fontSize: 9, bold: true, color: PRIMARY, margin: [0, 2, 0, 0] },
      sectionTitle: { fontSize: 9, bold: true, color: '#ffffff', characterSpacing: 0.5 },
      subTitle: { fontSize: 9.5, bold: true, margin: [0, 8, 0, 3] },
      label: { fontSize: 8, bold: true, color: MUTED },
      value: { fontSize: 9.5 },
      strong: { fontSize: 10, bold: true },
      muted: { fontSize: 9, italics: true, color: MUTED },
      footer: { fontSize: 7.5, color: MUTED },
    },
  };
}
