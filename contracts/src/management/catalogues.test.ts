import { describe, expect, it } from 'vitest';
import { CSV_BOM, escapeCsvCell } from './csv.js';
import { MANAGEMENT_EVENT_TYPES, isManagementEventType, managementEventSchema } from './events.js';
import { qrCodesCsvFileName, toQrCodesCsv } from './qr-code.js';
import { STATS_CSV_HEADER, statsCsvFileName, toStatsCsv } from './stats-csv.js';
import type { StatsTicketItem } from './stats.js';
import {
  TEMPLATE_VARIABLE_GROUPS,
  TEMPLATE_VARIABLE_KEYS,
  extractTemplateVariables,
  fillTemplateVariables,
  templateVariableToken,
  unknownTemplateVariables,
} from './template-variables.js';

describe('template variables', () => {
  it('offers the groups of management.md §3 in order', () => {
    expect(TEMPLATE_VARIABLE_GROUPS.map((g) => g.label)).toEqual(['Ticket', 'Technicien', 'Demandeur', 'Client', 'Site', 'Installation', 'Signatures']);
  });

  it('names every spec field with its group prefix, then the additions', () => {
    // The spec's ticket fields, then issue 32's devis and urgent (the quote request and the flag the client signs for).
    const ticket = ['num_chrono', 'id_technicien', 'nom', 'prenom', 'probleme', 'photo', 'created_at', 'arrive_at', 'temps_trajet', 'etat_arrivee', 'etat_depart', 'clos_at', 'email', 'telephone', 'constat_tech', 'remarque_tech', 'devis', 'urgent'];
    expect(TEMPLATE_VARIABLE_KEYS).toEqual([
      ...ticket.map((f) => `ticket.${f}`),
      'technicien.nom', 'technicien.prenom',
      'demandeur.nom', 'demandeur.prenom', 'demandeur.email',
      'client.nom', 'client.adresse', 'client.ville', 'client.code_postale', 'client.telephone',
      'site.nom', 'site.adresse', 'site.ville', 'site.code_postal', 'site.interlocuteur_princ',
      'installation.nom', 'installation.interlocuteur_princ', 'installation.type', 'installation.description',
      'signature.client', 'signature.technicien',
    ]);
    expect(new Set(TEMPLATE_VARIABLE_KEYS).size).toBe(TEMPLATE_VARIABLE_KEYS.length);
  });

  it('inserts the double-brace form', () => {
    expect(templateVariableToken('client.nom')).toBe('{{client.nom}}');
  });

  it('finds the variables a content uses and flags unknown ones', () => {
    const html = '<p>{{ client.nom }} – {{ticket.num_chrono}} {{client.nom}} {{client.name}}</p>';
    expect(extractTemplateVariables(html)).toEqual(['client.nom', 'ticket.num_chrono', 'client.name']);
    expect(unknownTemplateVariables(html)).toEqual(['client.name']);
  });

  it('fills text escaped, images as <img>, missing as empty, unknown untouched', () => {
    const html = '<p>{{client.nom}}|{{site.nom}}|{{signature.client}}|{{oops.x}}</p>';
    expect(fillTemplateVariables(html, { 'client.nom': 'A & <B>', 'signature.client': 'data:image/png;base64,AA' })).toBe(
      '<p>A &amp; &lt;B&gt;||<img src="data:image/png;base64,AA" alt="Signature du client" />|{{oops.x}}</p>',
    );
  });
});

describe('CSV cells', () => {
  it('quotes separators, quotes and line breaks, doubling inner quotes', () => {
    expect(escapeCsvCell('plain')).toBe('plain');
    expect(escapeCsvCell('a;b')).toBe('"a;b"');
    expect(escapeCsvCell('le "grand" site')).toBe('"le ""grand"" site"');
    expect(escapeCsvCell('ligne1\nligne2')).toBe('"ligne1\nligne2"');
    expect(escapeCsvCell(null)).toBe('');
    expect(escapeCsvCell(3)).toBe('3');
  });

  it('neutralizes text a spreadsheet would run as a formula', () => {
    expect(escapeCsvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(escapeCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});

describe('stats CSV', () => {
  const item: StatsTicketItem = {
    id: 't-1', num_chrono: '2026-0042', client_nom: 'ACME; Lyon', site_nom: 'Usine "Nord"', installation_nom: 'SSI',
    technicien_prenom: 'Léa', technicien_nom: 'Martin', created_at: '2026-01-15T08:05:00.000Z', clos_at: null,
    sla_ok: true, devis_ok: null, interventions_count: 2,
  };

  it('writes the BOM, the spec header in order and CRLF line ends', () => {
    const csv = toStatsCsv([]);
    expect(csv).toBe(`${CSV_BOM}${STATS_CSV_HEADER.join(';')}\r\n`);
    expect(STATS_CSV_HEADER.join(';')).toBe('Ticket ID;N° Chrono;Client;Site;Installation;Technicien;Créé le;Clôturé le;Respect délai intervention;Respect délai devis;Interventions');
  });

  it('writes one escaped line per ticket, Paris dates, Oui/Non/N/A', () => {
    const csv = toStatsCsv([item, { ...item, id: 't-2', clos_at: '2026-07-01T22:10:00Z', sla_ok: false, devis_ok: true, technicien_prenom: null, technicien_nom: null }], { bom: false });
    expect(csv.split('\r\n')).toEqual([
      STATS_CSV_HEADER.join(';'),
      't-1;2026-0042;"ACME; Lyon";"Usine ""Nord""";SSI;Léa Martin;15/01/2026 09:05;;Oui;N/A;2',
      't-2;2026-0042;"ACME; Lyon";"Usine ""Nord""";SSI;;15/01/2026 09:05;02/07/2026 00:10;Non;Oui;2',
      '',
    ]);
  });

  it('names the file after the export day in Paris', () => {
    expect(statsCsvFileName(new Date('2026-12-31T23:30:00Z'))).toBe('stats_tickets_2027-01-01.csv');
  });
});

describe('QR codes CSV', () => {
  it('lists id, key and URL', () => {
    expect(
      toQrCodesCsv([
        { id: 'q1', qr_key: 'k1', url: 'https://x/ticket?key=k1', installation_nom: 'Centrale; SSI', site_nom: 'Bât. A', client_nom: 'Clinique' },
        { id: 'q2', qr_key: 'k2', url: 'https://x/ticket?key=k2', installation_nom: null, site_nom: null, client_nom: null },
      ]),
    ).toBe(`${CSV_BOM}Clé;URL;Installation;Site;Client\r\nk1;https://x/ticket?key=k1;"Centrale; SSI";Bât. A;Clinique\r\nk2;https://x/ticket?key=k2;;;\r\n`);
    expect(qrCodesCsvFileName('2026-01-02')).toBe('qrcodes_2026-01-02.csv');
  });
});

describe('management events', () => {
  it('has unique past-tense type names covering every aggregate', () => {
    expect(new Set(MANAGEMENT_EVENT_TYPES).size).toBe(MANAGEMENT_EVENT_TYPES.length);
    expect(MANAGEMENT_EVENT_TYPES).toEqual(expect.arrayContaining([
      'AgenceCreated', 'AgenceUpdated', 'AgenceDeleted', 'AgenceHorairesSet', 'ClientCreated', 'SiteDeleted', 'InstallationUpdated',
      'InterlocuteurCreated', 'QrCodeGenerated', 'QrCodeAssigned', 'QrCodeUnassigned', 'UserCreated', 'UserPermissionsSet',
      'TelesurvAgencesSet', 'MetierCreated', 'MetiersReordered', 'TemplateCreated', 'TemplateDeleted',
    ]));
    expect(isManagementEventType('TicketOpened')).toBe(false);
  });

  it('parses a stored event and refuses a malformed one', () => {
    const event = { type: 'ClientDeleted', data: { clientId: '0b7d0f0e-1c2d-4e3f-9a4b-5c6d7e8f9a0b', deletedAt: '2026-01-01T10:00:00.000Z' } };
    expect(managementEventSchema.parse(event)).toEqual(event);
    expect(managementEventSchema.safeParse({ ...event, data: { clientId: 'x' } }).success).toBe(false);
  });
});
