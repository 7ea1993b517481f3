import {
  IllegalStateError,
  NotFoundError,
  ValidationError,
  type DomainError,
  type TicketEvent,
  type TicketPerson,
  type TicketVisitReport,
} from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { fold } from '../decider.js';
import {
  decide,
  ticketDecider,
  type AttachReport,
  type CloseTicket,
  type OpenTicket,
  type RecordReintervention,
  type TakeTicketInCharge,
  type TicketCommand,
  type ValidateQuote,
} from './decide.js';
import type { TicketVisitInput } from './ticket-visit.js';
import { evolve, initialState, type TicketState } from './ticket.js';

// ---------------------------------------------------------------------------
// given / when / then
// ---------------------------------------------------------------------------

function stateAfter(events: readonly TicketEvent[]): TicketState {
  return fold(evolve, initialState, events);
}

function given(...events: TicketEvent[]) {
  const state = stateAfter(events);
  return {
    when(command: TicketCommand) {
      return {
        then(expected: TicketEvent[]) {
          expect(decide(command, state)).toEqual(expected);
        },
        thenRejects(errorClass: new (message: string) => DomainError, message: string) {
          let thrown: unknown;
          try {
            decide(command, state);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(errorClass);
          expect((thrown as Error).message).toBe(message);
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

const openedAt = '2026-03-02T08:00:00.000Z';
/** The handlers' clock in these commands: after every visit of the fixtures. */
const now = '2026-03-05T12:00:00.000Z';
const paul: TicketPerson = { id: 'u-paul', prenom: 'Paul', nom: 'Durand' };
const lea: TicketPerson = { id: 'u-lea', prenom: 'Léa', nom: 'Roux' };
const operateur: TicketPerson = { id: 'u-op', prenom: 'Sophie', nom: 'Bernard' };

const openData: OpenTicket['data'] = {
  ticketId: 't-1',
  numChrono: 'LYO-2026-00042',
  source: 'manual',
  agenceId: 'a-lyon',
  client: { id: 'c-1', nom: 'Clinique du Parc' },
  site: { id: 's-1', nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
  installation: { id: 'i-1', nom: 'SSI catégorie A', astreinte: 1 },
  metier: { id: 'm-1', nom: 'Sécurité incendie' },
  delai: 4,
  urgent: true,
  probleme: 'Alarme feu sans cause',
  photo: 'sha256-photo',
  requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
  operateur,
  openedAt,
  now,
};

const open = (data: Partial<OpenTicket['data']> = {}): OpenTicket => ({ type: 'OpenTicket', data: { ...openData, ...data } });

const { inCharge: _none, now: _clock, ...openedFacts } = openData;
const ticketOpened: TicketEvent = { type: 'TicketOpened', data: { ...openedFacts, echeance: '2026-03-02T12:00:00.000Z' } };
const takenInCharge: TicketEvent = { type: 'TicketTakenInCharge', data: { technicien: paul, takenAt: '2026-03-02T08:10:00.000Z' } };

const take = (technicien: TicketPerson | null = lea, takenAt = '2026-03-02T08:10:00.000Z'): TakeTicketInCharge => ({
  type: 'TakeTicketInCharge',
  data: { technicien, takenAt },
});

const visitInput: TicketVisitInput = {
  constatTech: '  Détecteur optique encrassé, remplacé  ',
  remarqueTech: ' Prévoir contrôle annuel ',
  devis: 0,
  arriveAt: '2026-03-02T09:00:00.000Z',
  closedAt: '2026-03-02T10:00:00.000Z',
  etatArrivee: 'En alarme feu',
  etatDepart: 'Fonctionnel',
  tempsTrajet: '00:35',
  signatureClient: 'sha256-sig-client',
  signatureTechnicien: 'sha256-sig-tech',
  now,
};

/** The visit as recorded from `visitInput`, by the technician in charge (Paul). */
const visitReport: TicketVisitReport = {
  constatTech: 'Détecteur optique encrassé, remplacé',
  remarqueTech: 'Prévoir contrôle annuel',
  devis: 0,
  arriveAt: '2026-03-02T09:00:00.000Z',
  closedAt: '2026-03-02T10:00:00.000Z',
  etatArrivee: 'En alarme feu',
  etatDepart: 'Fonctionnel',
  tempsTrajet: '00:35',
  signatureClient: 'sha256-sig-client',
  signatureTechnicien: 'sha256-sig-tech',
  technicien: paul,
};

const close = (data: Partial<TicketVisitInput> = {}): CloseTicket => ({ type: 'CloseTicket', data: { ...visitInput, ...data } });
const reintervene = (interventionId = 'iv-1', data: Partial<TicketVisitInput> = {}): RecordReintervention => ({
  type: 'RecordReintervention',
  data: { ...visitInput, ...data, interventionId },
});
const attach = (nomRapport: string, interventionId: string | null = null): AttachReport => ({ type: 'AttachReport', data: { nomRapport, interventionId } });
const validate = (numeroDevis = 'D-2026-017', dateEnregistrementDevis: string | null = '2026-03-04'): ValidateQuote => ({
  type: 'ValidateQuote',
  data: { numeroDevis, dateEnregistrementDevis, validatedAt: '2026-03-04T15:00:00.000Z' },
});

const closed = (data: Partial<TicketVisitReport> = {}): TicketEvent => ({ type: 'TicketClosed', data: { ...visitReport, ...data } });
const reintervention = (interventionId = 'iv-1', data: Partial<TicketVisitReport> = {}): TicketEvent => ({
  type: 'ReinterventionRecorded',
  data: { ...visitReport, ...data, interventionId },
});

const M = {
  notFound: 'Ticket non trouvé',
  requiredFields: 'Merci de remplir tous les champs obligatoires.',
  constat: 'Le constat du technicien est obligatoire',
  numeroDevis: 'Le numéro de devis est obligatoire.',
  technicien: 'Merci de choisir un technicien.',
  exists: 'Ce ticket existe déjà.',
  alreadyTaken: 'Ce ticket est déjà pris en charge.',
  closed: 'Ce ticket est clos.',
  notTaken: 'Ce ticket n’a pas encore été pris en charge.',
  reportNeedsClosed: 'Le rapport ne peut être joint qu’à un ticket clos.',
  interventionNotFound: 'Intervention non trouvée',
  noQuote: 'Aucun devis n’est attendu pour ce ticket.',
  quoteValidated: 'Le devis de ce ticket est déjà validé.',
  invalidDate: 'Date invalide.',
  outOfRange: 'La date doit être comprise entre le 01/01/2000 et le 31/12/2099.',
  registrationInFuture: 'La date d’enregistrement ne peut pas être dans le futur.',
  visitInFuture: 'La fin de l’intervention ne peut pas être dans le futur.',
  visitBeforeOpening: 'L’arrivée du technicien ne peut pas précéder l’ouverture du ticket.',
  quoteBeforeOpening: 'La date d’enregistrement du devis ne peut pas précéder l’ouverture du ticket.',
  quoteInFuture: 'La date d’enregistrement du devis ne peut pas être dans le futur.',
  invalidDelai: 'Le délai d’intervention est invalide.',
  hidden: 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.',
  tooLong: 'Texte trop long.',
};

/** A right-to-left override: shows "Martin‮fdp.exe" as "Martinexe.pdf". */
const RLO = '\u202E';

/** Every way a visit report (closure or re-intervention) can be refused, with its French message. */
const invalidVisits: Array<[string, Partial<TicketVisitInput>, string]> = [
  ['a blank constat', { constatTech: '   ' }, M.constat],
  ['an arrival state outside the list', { etatArrivee: 'Cassé' }, 'État de l’installation à l’arrivée invalide.'],
  ['a departure state outside the list', { etatDepart: 'En service' }, 'État de l’installation au départ invalide.'],
  ['a travel time not in HH:mm', { tempsTrajet: '7:5' }, 'Le temps de trajet doit être au format HH:mm.'],
  ['a travel time of 24 hours', { tempsTrajet: '24:00' }, 'Le temps de trajet doit être au format HH:mm.'],
  ['no client signature', { signatureClient: null }, 'La signature du client est obligatoire.'],
  ['a blank client signature', { signatureClient: ' ' }, 'La signature du client est obligatoire.'],
  ['no technician signature', { signatureTechnicien: null }, 'La signature du technicien est obligatoire.'],
  ['devis other than 0 or 1', { devis: 2 }, 'Le champ devis doit valoir 0 ou 1.'],
  ['an unreadable arrival time', { arriveAt: '02/03/2026 09:00' }, M.invalidDate],
  ['an unreadable closing time', { closedAt: '2026-03-02T10:00' }, M.invalidDate],
  ['an arrival after the end of the visit', { arriveAt: '2026-03-02T11:00:00.000Z' }, 'L’heure d’arrivée ne peut pas être postérieure à la fin de l’intervention.'],
  ['a technician without id', { technicien: { id: ' ', prenom: 'X', nom: 'Y' } }, M.technicien],
  // Issue 17: a close dated 1500, or before the ticket's opening, stopped the read side for good.
  ['a visit dated in 1500', { arriveAt: '1500-03-02T09:00:00.000Z', closedAt: '1500-03-02T10:00:00.000Z' }, M.outOfRange],
  ['an end of visit in 2100', { closedAt: '2100-03-02T10:00:00.000Z' }, M.outOfRange],
  ['an arrival on 31/12/1999 in Paris', { arriveAt: '1999-12-31T22:59:59.000Z' }, M.outOfRange],
  ['an arrival before the ticket was opened', { arriveAt: '2026-03-02T07:59:59.000Z' }, M.visitBeforeOpening],
  ['a whole visit before the ticket was opened', { arriveAt: '2026-03-01T09:00:00.000Z', closedAt: '2026-03-01T10:00:00.000Z' }, M.visitBeforeOpening],
  ['an end of visit more than 5 minutes ahead of the clock', { closedAt: '2026-03-05T12:05:00.001Z' }, M.visitInFuture],
  // Found by the poison-events property test: instants Date.parse reads but the events' schema (and so every projector) refuses.
  ['an end of visit on 30 February', { closedAt: '2026-02-30T10:00:00.000Z' }, M.invalidDate],
  ['an end of visit at 24:00', { closedAt: '2026-03-02T24:00:00Z' }, M.invalidDate],
  ['an arrival without seconds', { arriveAt: '2026-03-02T10:00+01:00' }, M.invalidDate],
  ['a constat with a right-to-left override', { constatTech: `Détecteur ${RLO}cé` }, M.hidden],
  ['a remark with a zero-width space', { remarqueTech: 'RAS\u200B' }, M.hidden],
  ['a constat longer than 10,000 characters', { constatTech: 'x'.repeat(10_001) }, M.tooLong],
  ['a client signer with a zero-width space', { signataireNom: 'Marc\u200B Petit' }, M.hidden],
  ['a client signer role with a right-to-left override', { signataireQualite: `Responsable ${RLO}sécurité` }, M.hidden],
  ['a client signer name longer than 200 characters', { signataireNom: 'x'.repeat(201) }, M.tooLong],
  ['a client signer role longer than 200 characters', { signataireQualite: 'x'.repeat(201) }, M.tooLong],
];

// ---------------------------------------------------------------------------

describe('ticketDecider', () => {
  it('has the shape every aggregate follows', () => {
    expect(ticketDecider.initialState).toEqual({ status: 'nonexistent' });
    expect(ticketDecider.decide).toBe(decide);
    expect(ticketDecider.evolve).toBe(evolve);
  });
});

describe('when the ticket does not exist', () => {
  it('opens it with the deadline at opening + delai calendar hours', () => {
    given().when(open()).then([ticketOpened]);
  });

  it('opens it without deadline when no delay applies', () => {
    given()
      .when(open({ delai: null }))
      .then([{ type: 'TicketOpened', data: { ...openedFacts, delai: null, echeance: null } }]);
  });

  it('opens it and takes it in charge at once when staff chose a technician (manual creation)', () => {
    given()
      .when(open({ inCharge: { technicien: paul, takenAt: '2026-03-02T08:10:00.000Z' } }))
      .then([ticketOpened, takenInCharge]);
  });

  it('trims the contact fields and the problem, and keeps a technician remark', () => {
    given()
      .when(open({ probleme: '  Alarme feu sans cause ', requester: { nom: ' Martin ', prenom: 'Claire ', email: ' claire@example.fr', telephone: '0612345678 ' }, remarqueTech: ' Code porte 1234 ' }))
      .then([{ type: 'TicketOpened', data: { ...(ticketOpened.data as object), remarqueTech: 'Code porte 1234' } } as TicketEvent]);
  });

  it('opens a public request with no operator', () => {
    given()
      .when(open({ source: 'public', operateur: null, urgent: false }))
      .then([{ type: 'TicketOpened', data: { ...openedFacts, source: 'public', operateur: null, urgent: false, echeance: '2026-03-02T12:00:00.000Z' } }]);
  });

  it.each(['nom', 'prenom', 'email', 'telephone'] as const)('refuses a blank requester %s', (field) => {
    given()
      .when(open({ requester: { ...openData.requester, [field]: '  ' } }))
      .thenRejects(ValidationError, M.requiredFields);
  });

  it('refuses a blank problem', () => {
    given().when(open({ probleme: ' ' })).thenRejects(ValidationError, M.requiredFields);
  });

  it('refuses a missing chrono number or installation', () => {
    given().when(open({ numChrono: '' })).thenRejects(ValidationError, M.requiredFields);
    given().when(open({ installation: { id: '', nom: 'x', astreinte: 0 } })).thenRejects(ValidationError, M.requiredFields);
  });

  it('refuses a negative delay', () => {
    given().when(open({ delai: -1 })).thenRejects(ValidationError, 'Le délai d’intervention est invalide.');
  });

  it('refuses an unreadable opening time', () => {
    given().when(open({ openedAt: 'hier' })).thenRejects(ValidationError, M.invalidDate);
  });

  it('refuses a manual creation whose chosen technician has no id', () => {
    given()
      .when(open({ inCharge: { technicien: { id: '', prenom: '', nom: '' }, takenAt: openedAt } }))
      .thenRejects(ValidationError, M.technicien);
  });

  it('opens a ticket registered on the first day of the range, in Paris time', () => {
    const events = decide(open({ openedAt: '1999-12-31T23:00:00.000Z', delai: null }), initialState);
    expect(events[0]).toMatchObject({ type: 'TicketOpened', data: { openedAt: '1999-12-31T23:00:00.000Z' } });
  });

  it.each(['1500-06-15T10:00:00.000Z', '0100-01-01T12:00:00.000Z', '1999-12-31T22:59:59.999Z', '2100-01-01T00:00:00.000Z'])(
    'refuses a registration at %s with the range message (issue 17: year 1500 stopped the read side, year 0100 answered 500)',
    (at) => {
      given().when(open({ openedAt: at })).thenRejects(ValidationError, M.outOfRange);
    },
  );

  it('refuses a registration more than 5 minutes ahead of the clock, and accepts one within them', () => {
    given().when(open({ openedAt: '2026-03-05T12:05:00.001Z' })).thenRejects(ValidationError, M.registrationInFuture);
    expect(decide(open({ openedAt: '2026-03-05T12:05:00.000Z', delai: null }), initialState)).toHaveLength(1);
  });

  it('refuses a delay above a year of hours, and keeps one of exactly a year (issue 17: 3,000,000,000 hours)', () => {
    given().when(open({ delai: 8761 })).thenRejects(ValidationError, M.invalidDelai);
    given().when(open({ delai: 3_000_000_000 })).thenRejects(ValidationError, M.invalidDelai);
    given().when(open({ delai: Number.POSITIVE_INFINITY })).thenRejects(ValidationError, M.invalidDelai);
    expect(decide(open({ delai: 8760 }), initialState)[0]).toMatchObject({ data: { delai: 8760, echeance: '2027-03-02T08:00:00.000Z' } });
  });

  it('refuses a manual creation taken in charge at an instant out of range', () => {
    given()
      .when(open({ inCharge: { technicien: paul, takenAt: '1500-03-02T08:10:00.000Z' } }))
      .thenRejects(ValidationError, M.outOfRange);
  });

  it('refuses invisible characters and oversized texts in what the requester typed', () => {
    given().when(open({ requester: { ...openData.requester, nom: `Martin${RLO}fdp.exe` } })).thenRejects(ValidationError, M.hidden);
    given().when(open({ probleme: 'Alarme\u2066 feu' })).thenRejects(ValidationError, M.hidden);
    given().when(open({ remarqueTech: 'Code\u0007' })).thenRejects(ValidationError, M.hidden);
    given().when(open({ probleme: 'x'.repeat(5001) })).thenRejects(ValidationError, M.tooLong);
    given().when(open({ requester: { ...openData.requester, telephone: '0'.repeat(41) } })).thenRejects(ValidationError, M.tooLong);
  });

  it.each<[string, TicketCommand]>([
    ['take in charge', take()],
    ['close', close()],
    ['record a re-intervention', reintervene()],
    ['attach a report', attach('rapport.pdf')],
    ['validate a quote', validate()],
  ])("refuses to %s with 'Ticket non trouvé'", (_label, command) => {
    given().when(command).thenRejects(NotFoundError, M.notFound);
  });
});

describe('when open (ouvert)', () => {
  const history = [ticketOpened];

  it('is taken in charge by the chosen technician', () => {
    given(...history)
      .when(take(lea))
      .then([{ type: 'TicketTakenInCharge', data: { technicien: lea, takenAt: '2026-03-02T08:10:00.000Z' } }]);
  });

  it('refuses to be taken in charge without a technician', () => {
    given(...history).when(take(null)).thenRejects(ValidationError, M.technicien);
    given(...history).when(take({ id: '  ', prenom: 'Léa', nom: 'Roux' })).thenRejects(ValidationError, M.technicien);
  });

  it('refuses an unreadable taking-charge time', () => {
    given(...history).when(take(lea, 'maintenant')).thenRejects(ValidationError, M.invalidDate);
  });

  it('refuses a taking-charge time out of range', () => {
    given(...history).when(take(lea, '1500-03-02T08:10:00.000Z')).thenRejects(ValidationError, M.outOfRange);
  });

  it('refuses to be opened twice', () => {
    given(...history).when(open()).thenRejects(IllegalStateError, M.exists);
  });

  it('refuses a closure or a re-intervention before anyone took it in charge', () => {
    given(...history).when(close()).thenRejects(IllegalStateError, M.notTaken);
    given(...history).when(reintervene()).thenRejects(IllegalStateError, M.notTaken);
  });

  it('refuses a report on the ticket before its closure, and on an unknown intervention', () => {
    given(...history).when(attach('rapport.pdf')).thenRejects(IllegalStateError, M.reportNeedsClosed);
    given(...history).when(attach('rapport.pdf', 'iv-404')).thenRejects(NotFoundError, M.interventionNotFound);
  });

  it('refuses a quote validation: no visit asked for one', () => {
    given(...history).when(validate()).thenRejects(IllegalStateError, M.noQuote);
  });
});

describe('when in progress (en_cours)', () => {
  const history = [ticketOpened, takenInCharge];

  it('is closed with the visit report, by the technician in charge when none is named', () => {
    given(...history).when(close()).then([closed()]);
  });

  it('is closed by the named technician, with a quote asked for', () => {
    given(...history)
      .when(close({ technicien: lea, devis: 1 }))
      .then([closed({ technicien: lea, devis: 1 })]);
  });

  it('defaults the travel time to 00:00 and the remark to empty', () => {
    given(...history)
      .when(close({ tempsTrajet: '', remarqueTech: null }))
      .then([closed({ tempsTrajet: '00:00', remarqueTech: '' })]);
    given(...history)
      .when(close({ tempsTrajet: undefined }))
      .then([closed({ tempsTrajet: '00:00' })]);
  });

  it('accepts an arrival at the very end of the visit', () => {
    given(...history)
      .when(close({ arriveAt: visitInput.closedAt }))
      .then([closed({ arriveAt: visitReport.closedAt })]);
  });

  it('accepts an arrival typed in the very minute the ticket was opened (datetime-local has no seconds)', () => {
    const openedLate: TicketEvent = { type: 'TicketOpened', data: { ...openedFacts, openedAt: '2026-03-02T08:00:45.000Z', echeance: null, delai: null } };
    given(openedLate, takenInCharge)
      .when(close({ arriveAt: '2026-03-02T08:00:00.000Z' }))
      .then([closed({ arriveAt: '2026-03-02T08:00:00.000Z' })]);
    given(openedLate, takenInCharge).when(close({ arriveAt: '2026-03-02T07:59:59.999Z' })).thenRejects(ValidationError, M.visitBeforeOpening);
  });

  it('accepts an end of visit up to 5 minutes ahead of the clock (phones drift)', () => {
    given(...history)
      .when(close({ closedAt: '2026-03-05T12:05:00.000Z' }))
      .then([closed({ closedAt: '2026-03-05T12:05:00.000Z' })]);
  });

  it('records a re-intervention with the same fields', () => {
    given(...history).when(reintervene('iv-1')).then([reintervention('iv-1')]);
  });

  it('records who signed for the client and in which role, trimmed; blank ones are left out (the requester signed)', () => {
    given(...history)
      .when(close({ signataireNom: '  Marc Petit ', signataireQualite: ' Responsable sécurité ' }))
      .then([closed({ signataireNom: 'Marc Petit', signataireQualite: 'Responsable sécurité' })]);
    given(...history)
      .when(reintervene('iv-1', { signataireNom: 'Marc Petit', signataireQualite: '  ' }))
      .then([reintervention('iv-1', { signataireNom: 'Marc Petit' })]);
    given(...history).when(close({ signataireNom: null, signataireQualite: '' })).then([closed()]);
  });

  it('records the signed-in author beside the technician named (issue 32); without one, no author', () => {
    given(...history)
      .when(close({ technicien: paul, auteur: lea }))
      .then([closed({ technicien: paul, auteur: lea })]);
    given(...history).when(reintervene('iv-1', { auteur: paul })).then([reintervention('iv-1', { auteur: paul })]);
    given(...history).when(close({ auteur: null })).then([closed()]);
  });

  it.each(invalidVisits)('refuses a closure with %s', (_label, change, message) => {
    given(...history).when(close(change)).thenRejects(ValidationError, message);
  });

  it.each(invalidVisits)('refuses a re-intervention with %s', (_label, change, message) => {
    given(...history).when(reintervene('iv-1', change)).thenRejects(ValidationError, message);
  });

  it('refuses a re-intervention without id', () => {
    given(...history).when(reintervene(' ')).thenRejects(ValidationError, 'Identifiant invalide.');
  });

  it('refuses to be taken in charge again', () => {
    given(...history).when(take(lea)).thenRejects(IllegalStateError, M.alreadyTaken);
  });

  it('refuses to be opened again', () => {
    given(...history).when(open()).thenRejects(IllegalStateError, M.exists);
  });

  it('refuses a report on the ticket and a quote validation', () => {
    given(...history).when(attach('rapport.pdf')).thenRejects(IllegalStateError, M.reportNeedsClosed);
    given(...history).when(validate()).thenRejects(IllegalStateError, M.noQuote);
  });
});

describe('when in intervention', () => {
  const history = [ticketOpened, takenInCharge, reintervention('iv-1')];

  it('records another re-intervention and stays in intervention', () => {
    given(...history).when(reintervene('iv-2')).then([reintervention('iv-2')]);
    expect(stateAfter([...history, reintervention('iv-2')]).status).toBe('intervention');
  });

  it('refuses to record the same intervention twice', () => {
    given(...history).when(reintervene('iv-1')).thenRejects(IllegalStateError, 'Cette intervention est déjà enregistrée.');
  });

  it('is closed', () => {
    given(...history).when(close()).then([closed()]);
  });

  it('refuses to be taken in charge again', () => {
    given(...history).when(take(lea)).thenRejects(IllegalStateError, M.alreadyTaken);
  });

  it("attaches a report to the intervention, replaces it, and ignores the same name again", () => {
    given(...history).when(attach(' rapport-iv-1.pdf ', 'iv-1')).then([{ type: 'TicketReportAttached', data: { nomRapport: 'rapport-iv-1.pdf', interventionId: 'iv-1' } }]);
    const withReport = [...history, { type: 'TicketReportAttached', data: { nomRapport: 'rapport-iv-1.pdf', interventionId: 'iv-1' } } as TicketEvent];
    given(...withReport).when(attach('rapport-iv-1.pdf', 'iv-1')).then([]);
    given(...withReport).when(attach('rapport-iv-1-v2.pdf', 'iv-1')).then([{ type: 'TicketReportAttached', data: { nomRapport: 'rapport-iv-1-v2.pdf', interventionId: 'iv-1' } }]);
  });

  it('refuses a report on an unknown intervention, and on the ticket itself before closure', () => {
    given(...history).when(attach('rapport.pdf', 'iv-404')).thenRejects(NotFoundError, M.interventionNotFound);
    given(...history).when(attach('rapport.pdf')).thenRejects(IllegalStateError, M.reportNeedsClosed);
  });

  it('validates the quote a re-intervention asked for, before any closure', () => {
    given(ticketOpened, takenInCharge, reintervention('iv-1', { devis: 1 }))
      .when(validate())
      .then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-2026-017', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T15:00:00.000Z' } }]);
  });

  it('refuses a quote validation when no visit asked for one', () => {
    given(...history).when(validate()).thenRejects(IllegalStateError, M.noQuote);
  });
});

describe('when closed (clos)', () => {
  const history = [ticketOpened, takenInCharge, closed()];
  const withQuote = [ticketOpened, takenInCharge, closed({ devis: 1 })];

  it.each<[string, TicketCommand]>([
    ['taking in charge', take(lea)],
    ['a second closure', close()],
    ['a re-intervention', reintervene('iv-9')],
  ])('refuses %s', (_label, command) => {
    given(...history).when(command).thenRejects(IllegalStateError, M.closed);
  });

  it('refuses to be opened again', () => {
    given(...history).when(open()).thenRejects(IllegalStateError, M.exists);
  });

  it('refuses a closed ticket even with invalid input: the state answers first', () => {
    given(...history).when(close({ constatTech: '' })).thenRejects(IllegalStateError, M.closed);
  });

  it("attaches the closure report to the ticket, and ignores the same name again", () => {
    given(...history).when(attach('rapport-LYO-2026-00042.pdf')).then([{ type: 'TicketReportAttached', data: { nomRapport: 'rapport-LYO-2026-00042.pdf', interventionId: null } }]);
    given(...history, { type: 'TicketReportAttached', data: { nomRapport: 'rapport-LYO-2026-00042.pdf', interventionId: null } })
      .when(attach('rapport-LYO-2026-00042.pdf'))
      .then([]);
  });

  it("still attaches a report to one of its re-interventions", () => {
    given(ticketOpened, takenInCharge, reintervention('iv-1'), closed())
      .when(attach('rapport-iv-1.pdf', 'iv-1'))
      .then([{ type: 'TicketReportAttached', data: { nomRapport: 'rapport-iv-1.pdf', interventionId: 'iv-1' } }]);
  });

  it('refuses a blank report name or a path', () => {
    given(...history).when(attach('  ')).thenRejects(ValidationError, 'Le nom du rapport est obligatoire.');
    given(...history).when(attach('../rapport.pdf')).thenRejects(ValidationError, 'Nom de rapport invalide.');
  });

  it('validates its pending quote, number trimmed', () => {
    given(...withQuote)
      .when(validate('  D-2026-017 '))
      .then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-2026-017', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T15:00:00.000Z' } }]);
  });

  it('takes the French day of validation when no registration date is given', () => {
    given(...withQuote)
      .when({ type: 'ValidateQuote', data: { numeroDevis: 'D-1', validatedAt: '2026-03-04T23:30:00.000Z' } })
      .then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-05', validatedAt: '2026-03-04T23:30:00.000Z' } }]);
  });

  it('accepts a registration date-time as well as a day', () => {
    given(...withQuote)
      .when(validate('D-1', '2026-03-04T09:00:00.000Z'))
      .then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-04T09:00:00.000Z', validatedAt: '2026-03-04T15:00:00.000Z' } }]);
  });

  it("refuses a blank quote number with 'Le numéro de devis est obligatoire.'", () => {
    given(...withQuote).when(validate('   ')).thenRejects(ValidationError, M.numeroDevis);
  });

  it('refuses an impossible registration date or validation time', () => {
    given(...withQuote).when(validate('D-1', '2026-02-30')).thenRejects(ValidationError, M.invalidDate);
    given(...withQuote)
      .when({ type: 'ValidateQuote', data: { numeroDevis: 'D-1', validatedAt: 'bientôt' } })
      .thenRejects(ValidationError, M.invalidDate);
  });

  it('accepts a registration on the day the ticket was opened, and on the day of validation', () => {
    given(...withQuote).when(validate('D-1', '2026-03-02')).then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-02', validatedAt: '2026-03-04T15:00:00.000Z' } }]);
    given(...withQuote).when(validate('D-1', '2026-03-04')).then([{ type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T15:00:00.000Z' } }]);
  });

  it.each<[string, string, string]>([
    ['a day in 1500', '1500-03-04', M.outOfRange],
    ['an instant in year 0100', '0100-03-04T10:00:00.000Z', M.outOfRange],
    ['a day in 2100', '2100-03-04', M.outOfRange],
    ['the day before the ticket was opened', '2026-03-01', M.quoteBeforeOpening],
    ['an instant on the day before the opening, in Paris', '2026-03-01T22:59:59.000Z', M.quoteBeforeOpening],
    ['the day after the validation', '2026-03-05', M.quoteInFuture],
    ['an instant more than 5 minutes after the validation', '2026-03-04T15:05:00.001Z', M.quoteInFuture],
  ])('refuses a registration date on %s', (_label, date, message) => {
    given(...withQuote).when(validate('D-1', date)).thenRejects(ValidationError, message);
  });

  it('refuses a quote number with invisible characters, and a validation time out of range', () => {
    given(...withQuote).when(validate(`D-${RLO}17`)).thenRejects(ValidationError, M.hidden);
    given(...withQuote)
      .when({ type: 'ValidateQuote', data: { numeroDevis: 'D-1', validatedAt: '1500-03-04T15:00:00.000Z' } })
      .thenRejects(ValidationError, M.outOfRange);
  });

  it('refuses a report name with invisible characters', () => {
    given(...history).when(attach(`rapport${RLO}fdp.pdf`)).thenRejects(ValidationError, M.hidden);
  });

  it('refuses a quote validation when the closure asked for none (devis = 0)', () => {
    given(...history).when(validate()).thenRejects(IllegalStateError, M.noQuote);
  });

  it('refuses to validate a quote twice', () => {
    given(...withQuote, { type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T15:00:00.000Z' } })
      .when(validate('D-2'))
      .thenRejects(IllegalStateError, M.quoteValidated);
  });
});

describe('evolve', () => {
  it('walks the statuses ouvert → en_cours → intervention → clos', () => {
    expect(stateAfter([ticketOpened]).status).toBe('ouvert');
    expect(stateAfter([ticketOpened, takenInCharge]).status).toBe('en_cours');
    expect(stateAfter([ticketOpened, takenInCharge, reintervention()]).status).toBe('intervention');
    expect(stateAfter([ticketOpened, takenInCharge, reintervention(), closed()]).status).toBe('clos');
  });

  it('starts the quote window at the end of the first visit that asked for a quote', () => {
    const state = stateAfter([ticketOpened, takenInCharge, reintervention('iv-1', { devis: 1, closedAt: '2026-03-02T10:00:00.000Z' }), closed({ devis: 1, closedAt: '2026-03-03T10:00:00.000Z' })]);
    expect(state.status !== 'nonexistent' && state.quote).toEqual({ status: 'pending', requestedAt: '2026-03-02T10:00:00.000Z' });
  });

  it('keeps a requested quote when a later visit asks for none', () => {
    const state = stateAfter([ticketOpened, takenInCharge, reintervention('iv-1', { devis: 1 }), closed({ devis: 0 })]);
    expect(state.status !== 'nonexistent' && state.quote.status).toBe('pending');
  });

  it('keeps a validated quote validated when a later visit asks for a quote again', () => {
    const quoteValidated: TicketEvent = { type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T15:00:00.000Z' } };
    const history = [ticketOpened, takenInCharge, reintervention('iv-1', { devis: 1 }), quoteValidated, closed({ devis: 1 })];
    given(...history).when(validate('D-2')).thenRejects(IllegalStateError, M.quoteValidated);
  });

  it('ignores an event that does not fit the state instead of corrupting it', () => {
    expect(stateAfter([takenInCharge])).toEqual(initialState);
    expect(stateAfter([ticketOpened, closed()]).status).toBe('ouvert');
  });
});

// ---------------------------------------------------------------------------
// « Je suis sur site » (issue 32)
// ---------------------------------------------------------------------------

describe('« Je suis sur site » (RecordArrivalOnSite)', () => {
  const arrive = (arrivedAt = '2026-03-05T09:40:00.000Z', technicien: TicketPerson | null = paul): TicketCommand => ({
    type: 'RecordArrivalOnSite',
    data: { technicien, arrivedAt },
  });
  const arrived = (arrivedAt = '2026-03-05T09:40:00.000Z', technicien: TicketPerson | null = paul): TicketEvent => ({
    type: 'TechnicianArrivedOnSite',
    data: { technicien, arrivedAt },
  });

  it('when in progress, records the arrival by the clock and who tapped', () => {
    given(ticketOpened, takenInCharge).when(arrive()).then([arrived()]);
    given(ticketOpened, takenInCharge).when(arrive(undefined, lea)).then([arrived(undefined, lea)]);
  });

  it('when the arrival is already recorded, records nothing: the first one is the visit’s', () => {
    given(ticketOpened, takenInCharge, arrived()).when(arrive('2026-03-05T10:00:00.000Z', lea)).then([]);
  });

  it('when a re-intervention was recorded since, records the next visit’s arrival', () => {
    given(ticketOpened, takenInCharge, arrived(), reintervention('iv-1')).when(arrive('2026-03-06T08:00:00.000Z')).then([arrived('2026-03-06T08:00:00.000Z')]);
  });

  it('refuses it on a ticket not taken in charge, closed, or unknown', () => {
    given(ticketOpened).when(arrive()).thenRejects(IllegalStateError, M.notTaken);
    given(ticketOpened, takenInCharge, closed()).when(arrive()).thenRejects(IllegalStateError, M.closed);
    given().when(arrive()).thenRejects(NotFoundError, M.notFound);
  });

  it('refuses an instant the read side could not hold', () => {
    given(ticketOpened, takenInCharge).when(arrive('2026-02-30T10:00:00Z')).thenRejects(ValidationError, M.invalidDate);
  });
});
