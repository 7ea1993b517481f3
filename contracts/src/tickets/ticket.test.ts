import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  closedTicketsQuerySchema,
  manualTicketCreateBodySchema,
  publicTicketCreateBodySchema,
  takeTicketInChargeBodySchema,
  ticketEventSchema,
  ticketListSearchSchema,
  ticketPatchBodySchema,
  ticketStreamId,
  ticketVisitBodySchema,
  validateQuoteBodySchema,
  type TicketEvent,
} from './ticket.js';

const INSTALLATION = '6f1c2b9e-4a3d-4e8f-9b1a-2c3d4e5f6a7b';
const TECH = '0b7e5c1a-2d3f-4a5b-8c9d-0e1f2a3b4c5d';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The French message a route would answer with: the first issue's. */
function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

const manual = {
  installation_id: INSTALLATION,
  nom: 'Martin',
  prenom: 'Claire',
  email: 'claire.martin@example.fr',
  telephone: '06 12 34 56 78',
  probleme: 'Alarme en défaut',
};

describe('manualTicketCreateBodySchema', () => {
  it('accepts the multipart text fields, with empty optional fields as absent', () => {
    const parsed = manualTicketCreateBodySchema.parse({ ...manual, id_technicien: '', date_enregistrement: '2026-03-02', heure_enregistrement: '08:15', urgent: 'on' });
    expect(parsed).toMatchObject({ ...manual, id_technicien: undefined, date_enregistrement: '2026-03-02', heure_enregistrement: '08:15', urgent: true });
  });

  it.each(['installation_id', 'nom', 'prenom', 'email', 'telephone', 'probleme'] as const)(
    "refuses a missing or blank %s with 'Merci de remplir tous les champs obligatoires.'",
    (field) => {
      expect(firstError(manualTicketCreateBodySchema, { ...manual, [field]: '  ' })).toBe('Merci de remplir tous les champs obligatoires.');
      const { [field]: _removed, ...without } = manual;
      expect(firstError(manualTicketCreateBodySchema, without)).toBe('Merci de remplir tous les champs obligatoires.');
    },
  );

  it('refuses a malformed email and a malformed technician id', () => {
    expect(firstError(manualTicketCreateBodySchema, { ...manual, email: 'claire' })).toBe('Adresse email invalide.');
    expect(firstError(manualTicketCreateBodySchema, { ...manual, id_technicien: '42' })).toBe('Identifiant invalide.');
  });

  it('needs both registration date and time, and real ones', () => {
    expect(firstError(manualTicketCreateBodySchema, { ...manual, date_enregistrement: '2026-03-02' })).toBe('Date et heure d’enregistrement invalides.');
    expect(firstError(manualTicketCreateBodySchema, { ...manual, date_enregistrement: '2026-02-30', heure_enregistrement: '08:00' })).toBe(
      'Date et heure d’enregistrement invalides.',
    );
  });
});

describe('publicTicketCreateBodySchema', () => {
  const body = { ...manual, installation_id: undefined, key: 'qr-7f3a', 'g-recaptcha-response': 'proof' };

  it('accepts key, contact fields, problem and captcha proof', () => {
    expect(publicTicketCreateBodySchema.safeParse(body).success).toBe(true);
  });

  it('refuses a missing key with the invalid-link message', () => {
    expect(firstError(publicTicketCreateBodySchema, { ...body, key: '' })).toBe('Lien non valide. Merci de scanner un QR code officiel.');
  });

  it('refuses a missing captcha proof with the reCAPTCHA failure message', () => {
    expect(firstError(publicTicketCreateBodySchema, { ...body, 'g-recaptcha-response': '' })).toBe('Échec reCAPTCHA. Merci de réessayer.');
  });

  it('refuses a missing problem with the required-fields message', () => {
    expect(firstError(publicTicketCreateBodySchema, { ...body, probleme: '' })).toBe('Merci de remplir tous les champs obligatoires.');
  });
});

describe('ticketPatchBodySchema', () => {
  it('reads statut + technicien_id as taking in charge', () => {
    expect(ticketPatchBodySchema.parse({ statut: 'en_cours', technicien_id: TECH })).toEqual({ action: 'take_in_charge', technicien_id: TECH });
    expect(takeTicketInChargeBodySchema.parse({ statut: 'en_cours', technicien_id: TECH })).toEqual({ statut: 'en_cours', technicien_id: TECH });
  });

  it('reads nom_rapport as attaching the report', () => {
    expect(ticketPatchBodySchema.parse({ nom_rapport: 'rapport-LYO-2026-00042.pdf' })).toEqual({ action: 'attach_report', nom_rapport: 'rapport-LYO-2026-00042.pdf' });
  });

  it('asks for a technician when none is chosen', () => {
    expect(firstError(ticketPatchBodySchema, { statut: 'en_cours' })).toBe('Merci de choisir un technicien.');
    expect(firstError(ticketPatchBodySchema, { statut: 'en_cours', technicien_id: '' })).toBe('Merci de choisir un technicien.');
    expect(firstError(takeTicketInChargeBodySchema, { statut: 'en_cours' })).toBe('Merci de choisir un technicien.');
  });

  it('refuses another status, a path as report name, and an empty or mixed body', () => {
    expect(firstError(ticketPatchBodySchema, { statut: 'clos', technicien_id: TECH })).toBe('Statut invalide.');
    expect(firstError(ticketPatchBodySchema, { nom_rapport: '../../etc/passwd' })).toBe('Nom de rapport invalide.');
    expect(firstError(ticketPatchBodySchema, { nom_rapport: ' ' })).toBe('Le nom du rapport est obligatoire.');
    expect(firstError(ticketPatchBodySchema, {})).toBe('Requête invalide : choisissez un technicien ou indiquez un nom de rapport.');
    expect(firstError(ticketPatchBodySchema, { statut: 'en_cours', technicien_id: TECH, nom_rapport: 'r.pdf' })).toBe(
      'Requête invalide : choisissez un technicien ou indiquez un nom de rapport.',
    );
  });
});

const visit = {
  constat_tech: '  Détecteur remplacé  ',
  etat_arrivee: 'En dérangement',
  etat_depart: 'Fonctionnel',
  signature_client: PNG,
  signature_technicien: PNG,
};

describe('ticketVisitBodySchema (close and re-intervention)', () => {
  it('fills the defaults: no remark, no quote, travel time 00:00', () => {
    expect(ticketVisitBodySchema.parse(visit)).toEqual({
      ...visit,
      constat_tech: 'Détecteur remplacé',
      remarque_tech: '',
      devis: 0,
      temps_trajet: '00:00',
      date_cloture: undefined,
      arrive_at: undefined,
      technicien_id: undefined,
    });
  });

  it('coerces devis from strings and booleans, and local times to UTC', () => {
    const parsed = ticketVisitBodySchema.parse({ ...visit, devis: '1', arrive_at: '2026-03-02T09:00', date_cloture: '2026-03-02T10:30', temps_trajet: '01:15' });
    expect(parsed).toMatchObject({ devis: 1, arrive_at: '2026-03-02T08:00:00.000Z', date_cloture: '2026-03-02T09:30:00.000Z', temps_trajet: '01:15' });
    expect(ticketVisitBodySchema.parse({ ...visit, devis: true }).devis).toBe(1);
    expect(ticketVisitBodySchema.parse({ ...visit, devis: 0 }).devis).toBe(0);
  });

  it.each([
    [{ constat_tech: '   ' }, 'Le constat du technicien est obligatoire'],
    [{ constat_tech: undefined }, 'Le constat du technicien est obligatoire'],
    [{ etat_arrivee: 'Cassé' }, 'État de l’installation à l’arrivée invalide.'],
    [{ etat_depart: 'En service' }, 'État de l’installation au départ invalide.'],
    [{ temps_trajet: '1h30' }, 'Le temps de trajet doit être au format HH:mm.'],
    [{ temps_trajet: '24:00' }, 'Le temps de trajet doit être au format HH:mm.'],
    [{ devis: 2 }, 'Le champ devis doit valoir 0 ou 1.'],
    [{ signature_client: '' }, 'La signature du client est obligatoire.'],
    [{ signature_technicien: undefined }, 'La signature du technicien est obligatoire.'],
    [{ signature_client: 'data:image/jpeg;base64,AAAA' }, 'Signature invalide : une image PNG est attendue.'],
    [{ date_cloture: '2026-02-30T10:00' }, 'Date invalide.'],
    [{ arrive_at: '2026-03-02T11:00', date_cloture: '2026-03-02T10:00' }, 'L’heure d’arrivée ne peut pas être postérieure à la fin de l’intervention.'],
    [{ technicien_id: 'bob' }, 'Identifiant invalide.'],
  ])('refuses %o', (change, message) => {
    expect(firstError(ticketVisitBodySchema, { ...visit, ...change })).toBe(message);
  });
});

describe('validateQuoteBodySchema', () => {
  it('trims the number and keeps a day as is', () => {
    expect(validateQuoteBodySchema.parse({ numero_devis: ' D-17 ', date_enregistrement_devis: '2026-03-04' })).toEqual({ numero_devis: 'D-17', date_enregistrement_devis: '2026-03-04' });
  });

  it('normalises a date-time and treats an empty date as absent', () => {
    expect(validateQuoteBodySchema.parse({ numero_devis: 'D-17', date_enregistrement_devis: '2026-03-04T10:00' }).date_enregistrement_devis).toBe('2026-03-04T09:00:00.000Z');
    expect(validateQuoteBodySchema.parse({ numero_devis: 'D-17', date_enregistrement_devis: '' }).date_enregistrement_devis).toBeUndefined();
  });

  it("refuses a blank number with 'Le numéro de devis est obligatoire.'", () => {
    expect(firstError(validateQuoteBodySchema, { numero_devis: '   ' })).toBe('Le numéro de devis est obligatoire.');
    expect(firstError(validateQuoteBodySchema, {})).toBe('Le numéro de devis est obligatoire.');
  });

  it('refuses an impossible date', () => {
    expect(firstError(validateQuoteBodySchema, { numero_devis: 'D-17', date_enregistrement_devis: '2026-02-31' })).toBe('Date invalide.');
  });
});

describe('closedTicketsQuerySchema', () => {
  it('reads the query string, empty values as absent', () => {
    expect(closedTicketsQuerySchema.parse({ date_debut: '2026-03-01', date_fin: '2026-03-31', client_id: '', technicien_id: TECH, devis_attente: '1' })).toEqual({
      date_debut: '2026-03-01',
      date_fin: '2026-03-31',
      client_id: undefined,
      site_id: undefined,
      installation_id: undefined,
      technicien_id: TECH,
      metier_id: undefined,
      devis_attente: true,
    });
  });

  it('refuses a range that ends before it starts, and malformed values', () => {
    expect(firstError(closedTicketsQuerySchema, { date_debut: '2026-03-31', date_fin: '2026-03-01' })).toBe('La date de début doit précéder la date de fin.');
    expect(firstError(closedTicketsQuerySchema, { date_debut: '31/03/2026' })).toBe('Date invalide.');
    expect(firstError(closedTicketsQuerySchema, { site_id: '12' })).toBe('Identifiant invalide.');
  });
});

describe('ticketListSearchSchema', () => {
  it('reads the list URL and drops what it does not understand', () => {
    expect(ticketListSearchSchema.parse({ statut: 'clos', devis_attente: '1' })).toEqual({ statut: 'clos', urgent: undefined, devis_attente: true });
    expect(ticketListSearchSchema.parse({ statut: 'perdu', urgent: 'peut-être' })).toEqual({ statut: undefined, urgent: undefined, devis_attente: undefined });
  });
});

describe('dates outside 01/01/2000 – 31/12/2099 (issue 17: year 0100 answered 500, year 1500 stopped the read side)', () => {
  const OUT_OF_RANGE = 'La date doit être comprise entre le 01/01/2000 et le 31/12/2099.';

  it.each(['0100', '1500', '1999', '2100', '9999'])('refuses year %s in every ticket date field, with the range message', (year) => {
    expect(firstError(manualTicketCreateBodySchema, { ...manual, date_enregistrement: `${year}-03-02`, heure_enregistrement: '08:00' })).toBe(OUT_OF_RANGE);
    expect(firstError(ticketVisitBodySchema, { ...visit, date_cloture: `${year}-03-02T10:00` })).toBe(OUT_OF_RANGE);
    expect(firstError(ticketVisitBodySchema, { ...visit, arrive_at: `${year}-03-02T10:00:00Z` })).toBe(OUT_OF_RANGE);
    expect(firstError(validateQuoteBodySchema, { numero_devis: 'D-17', date_enregistrement_devis: `${year}-03-04` })).toBe(OUT_OF_RANGE);
    expect(firstError(validateQuoteBodySchema, { numero_devis: 'D-17', date_enregistrement_devis: `${year}-03-04T10:00` })).toBe(OUT_OF_RANGE);
    expect(firstError(closedTicketsQuerySchema, { date_debut: `${year}-03-01` })).toBe(OUT_OF_RANGE);
  });

  it('accepts both ends of the range', () => {
    expect(manualTicketCreateBodySchema.safeParse({ ...manual, date_enregistrement: '2000-01-01', heure_enregistrement: '00:00' }).success).toBe(true);
    expect(ticketVisitBodySchema.parse({ ...visit, arrive_at: '2000-01-01T00:00', date_cloture: '2099-12-31T23:59' })).toMatchObject({
      arrive_at: '1999-12-31T23:00:00.000Z',
      date_cloture: '2099-12-31T22:59:00.000Z',
    });
    expect(closedTicketsQuerySchema.parse({ date_debut: '2000-01-01', date_fin: '2099-12-31' })).toMatchObject({ date_debut: '2000-01-01', date_fin: '2099-12-31' });
  });

  it('keeps the invalid-date messages for dates that do not exist', () => {
    expect(firstError(manualTicketCreateBodySchema, { ...manual, date_enregistrement: '1500-02-30', heure_enregistrement: '08:00' })).toBe(
      'Date et heure d’enregistrement invalides.',
    );
    expect(firstError(ticketVisitBodySchema, { ...visit, date_cloture: '1500-02-30T10:00' })).toBe('Date invalide.');
  });
});

describe('invisible and control characters in stored texts (issue 17, item 13: names shown reversed)', () => {
  const HIDDEN = 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.';
  const RLO = '\u202E';

  it.each([
    ['a right-to-left override', `Dupont${RLO}fdp.exe`],
    ['a left-to-right embedding', 'Dupont\u202Ax'],
    ['a right-to-left isolate', 'Du\u2067pont'],
    ['a right-to-left mark', 'Dupont\u200F'],
    ['a zero-width space', 'Du\u200Bpont'],
    ['a word joiner', 'Du\u2060pont'],
    ['a BOM inside the text', 'Du\uFEFFpont'],
    ['a C0 control', 'Du\u0007pont'],
    ['a C1 control', 'Du\u0085pont'],
    ['a tag character', 'Dupont\u{E0041}'],
  ])('refuses %s in every text field of the ticket requests', (_label, text) => {
    for (const field of ['nom', 'prenom', 'telephone', 'probleme'] as const) {
      expect(firstError(manualTicketCreateBodySchema, { ...manual, [field]: text }), field).toBe(HIDDEN);
      expect(firstError(publicTicketCreateBodySchema, { ...manual, installation_id: undefined, key: 'qr-7f3a', 'g-recaptcha-response': 'proof', [field]: text }), field).toBe(HIDDEN);
    }
    expect(firstError(manualTicketCreateBodySchema, { ...manual, remarque_tech: text })).toBe(HIDDEN);
    expect(firstError(ticketVisitBodySchema, { ...visit, constat_tech: text })).toBe(HIDDEN);
    expect(firstError(ticketVisitBodySchema, { ...visit, remarque_tech: text })).toBe(HIDDEN);
    expect(firstError(validateQuoteBodySchema, { numero_devis: text })).toBe(HIDDEN);
    // The report name's own pattern already refused C0 controls, with its message.
    expect([HIDDEN, 'Nom de rapport invalide.']).toContain(firstError(ticketPatchBodySchema, { nom_rapport: `rapport${text}.pdf` }));
  });

  it('keeps accents, emoji (joiners included), line breaks and tabs', () => {
    const text = 'Hôtel Éole 🚒 👩‍🚒\n\tbâtiment « A »';
    expect(manualTicketCreateBodySchema.parse({ ...manual, nom: 'Müller-Øster', probleme: text }).probleme).toBe(text);
    expect(ticketVisitBodySchema.parse({ ...visit, constat_tech: text }).constat_tech).toBe(text);
  });
});

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

const opened: TicketEvent = {
  type: 'TicketOpened',
  data: {
    ticketId: 't-1',
    numChrono: 'LYO-2026-00001',
    source: 'public',
    agenceId: 'a-1',
    client: { id: 'c-1', nom: 'Clinique du Parc' },
    site: { id: 's-1', nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
    installation: { id: 'i-1', nom: 'SSI catégorie A', astreinte: 1 },
    metier: null,
    delai: 4,
    echeance: '2026-03-02T12:00:00.000Z',
    urgent: true,
    probleme: 'Alarme feu sans cause',
    photo: null,
    requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
    operateur: null,
    openedAt: '2026-03-02T08:00:00.000Z',
  },
};

const visitReport = {
  constatTech: 'Détecteur remplacé',
  remarqueTech: '',
  devis: 1 as const,
  arriveAt: '2026-03-02T09:00:00.000Z',
  closedAt: '2026-03-02T10:00:00.000Z',
  etatArrivee: 'En alarme feu' as const,
  etatDepart: 'Fonctionnel' as const,
  tempsTrajet: '00:30',
  signatureClient: 'sha256-client',
  signatureTechnicien: 'sha256-tech',
  technicien: { id: 'u-1', prenom: 'Paul', nom: 'Durand' },
};

describe('ticketEventSchema', () => {
  it('round-trips every event type through JSON', () => {
    const events: TicketEvent[] = [
      opened,
      { type: 'TicketTakenInCharge', data: { technicien: visitReport.technicien, takenAt: '2026-03-02T08:30:00.000Z' } },
      { type: 'ReinterventionRecorded', data: { ...visitReport, interventionId: 'iv-1' } },
      { type: 'TicketClosed', data: visitReport },
      { type: 'TicketReportAttached', data: { nomRapport: 'rapport.pdf', interventionId: null } },
      { type: 'QuoteValidated', data: { numeroDevis: 'D-17', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T10:00:00.000Z' } },
    ];
    for (const event of events) {
      expect(ticketEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
    }
  });

  it('refuses an unknown type and a state outside the lists', () => {
    expect(ticketEventSchema.safeParse({ type: 'TicketDeleted', data: {} }).success).toBe(false);
    expect(ticketEventSchema.safeParse({ type: 'TicketClosed', data: { ...visitReport, etatDepart: 'Cassé' } }).success).toBe(false);
  });

  it('names the stream ticket-<id>', () => {
    expect(ticketStreamId('8d1f')).toBe('ticket-8d1f');
  });
});
