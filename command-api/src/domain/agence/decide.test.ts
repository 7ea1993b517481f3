import { IllegalStateError, NotFoundError, ValidationError, defaultAgenceHoraires, type AgenceEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { agenceDecider, type AgenceCommand } from './decide.js';

const spec = deciderSpec(agenceDecider);
const agenceId = IDS.agence;
const fields = { nom: 'Agence Lyon', adresse: '1 rue des Lilas', cp_postal: '69003', ville: 'Lyon', telephone: '0478000000' };
const facts = { ...fields, templateId: null };

const created: AgenceEvent = { type: 'AgenceCreated', data: { agenceId, ...facts, createdAt: T0 } };
const defaultWeek: AgenceEvent = { type: 'AgenceHorairesSet', data: { agenceId, horaires: defaultAgenceHoraires(), updatedAt: T0 } };
const deleted: AgenceEvent = { type: 'AgenceDeleted', data: { agenceId, deletedAt: T1 } };

const create = (f: object = fields): AgenceCommand => ({ type: 'CreateAgence', data: { agenceId, fields: f as never, createdAt: T0 } });
const update = (f: object): AgenceCommand => ({ type: 'UpdateAgence', data: { agenceId, fields: f as never, updatedAt: T2 } });
const remove = (flags: { hasClients?: boolean; hasUsers?: boolean } = {}): AgenceCommand => ({
  type: 'DeleteAgence',
  data: { agenceId, hasClients: flags.hasClients ?? false, hasUsers: flags.hasUsers ?? false, deletedAt: T2 },
});
const setHoraires = (horaires: unknown): AgenceCommand => ({ type: 'SetAgenceHoraires', data: { agenceId, horaires, updatedAt: T2 } });

describe('when the agency does not exist', () => {
  it('creates it, trimmed, open Monday to Friday with the default hours', () => {
    spec.given().when(create({ ...fields, nom: '  Agence Lyon ' })).then([created, defaultWeek]);
  });

  it('keeps a template chosen at creation', () => {
    spec
      .given()
      .when(create({ ...fields, id_template: IDS.template }))
      .then([{ type: 'AgenceCreated', data: { agenceId, ...fields, templateId: IDS.template, createdAt: T0 } }, defaultWeek]);
  });

  it.each([
    ['nom', "Le nom de l'agence est obligatoire."],
    ['adresse', "L'adresse de l'agence est obligatoire."],
    ['cp_postal', "Le code postal de l'agence est obligatoire."],
    ['ville', "La ville de l'agence est obligatoire."],
    ['telephone', "Le téléphone de l'agence est obligatoire."],
  ])('refuses a blank %s', (field, message) => {
    spec.given().when(create({ ...fields, [field]: ' ' })).thenRejects(ValidationError, message);
  });

  it('cannot update, delete or set the hours of a missing agency', () => {
    spec.given().when(update(fields)).thenRejects(NotFoundError, 'Agence introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Agence introuvable.');
    spec.given().when(setHoraires([])).thenRejects(NotFoundError, 'Agence introuvable.');
  });
});

describe('when the agency exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created, defaultWeek).when(create()).thenRejects(IllegalStateError, 'Cette agence existe déjà.');
  });

  it('records the whole agency after an edit', () => {
    spec
      .given(created, defaultWeek)
      .when(update({ ...fields, telephone: '0478111111' }))
      .then([{ type: 'AgenceUpdated', data: { agenceId, ...facts, telephone: '0478111111', updatedAt: T2 } }]);
  });

  it('keeps the template when the form does not send it, assigns and unassigns it when sent', () => {
    const assigned: AgenceEvent = { type: 'AgenceUpdated', data: { agenceId, ...facts, templateId: IDS.template, updatedAt: T1 } };
    spec.given(created, assigned).when(update(fields)).then([]);
    spec.given(created).when(update({ ...fields, id: agenceId, id_template: IDS.template })).then([{ ...assigned, data: { ...assigned.data, updatedAt: T2 } }]);
    spec
      .given(created, assigned)
      .when(update({ ...fields, id_template: null }))
      .then([{ type: 'AgenceUpdated', data: { agenceId, ...facts, templateId: null, updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created, defaultWeek).when(update({ ...fields, ville: ' Lyon ' })).then([]);
  });

  it('refuses an edit that blanks a required field', () => {
    spec.given(created).when(update({ ...fields, adresse: '' })).thenRejects(ValidationError, "L'adresse de l'agence est obligatoire.");
  });

  it('replaces the week: a day left out is closed', () => {
    const monday = { day_of_week: 1, morning_open: '09:00', morning_close: '12:00', afternoon_open: null, afternoon_close: null };
    const closed = (day: number) => ({ day_of_week: day, morning_open: null, morning_close: null, afternoon_open: null, afternoon_close: null });
    spec
      .given(created, defaultWeek)
      .when(setHoraires([monday]))
      .then([{ type: 'AgenceHorairesSet', data: { agenceId, horaires: [monday, closed(2), closed(3), closed(4), closed(5)], updatedAt: T2 } }]);
  });

  it('appends nothing when the week is saved unchanged, whatever the key order', () => {
    const reordered = defaultAgenceHoraires().map(({ afternoon_close, afternoon_open, morning_close, morning_open, day_of_week }) => ({
      afternoon_close, afternoon_open, morning_close, morning_open, day_of_week,
    }));
    spec.given(created, { type: 'AgenceHorairesSet', data: { agenceId, horaires: reordered, updatedAt: T0 } }).when(setHoraires(defaultAgenceHoraires())).then([]);
  });

  it('refuses hours outside Monday to Friday or a half-open half-day', () => {
    spec.given(created).when(setHoraires([{ day_of_week: 6 }])).thenRejects(ValidationError, 'Les horaires ne concernent que les jours du lundi (1) au vendredi (5).');
    spec
      .given(created)
      .when(setHoraires([{ day_of_week: 1, morning_open: '08:00', morning_close: null }]))
      .thenRejects(ValidationError, "L'ouverture et la fermeture du matin doivent être renseignées ensemble.");
  });

  it('deletes an agency with no clients and no users', () => {
    spec.given(created).when(remove()).then([{ type: 'AgenceDeleted', data: { agenceId, deletedAt: T2 } }]);
  });

  it('refuses to delete an agency that still has clients or users', () => {
    spec.given(created).when(remove({ hasClients: true })).thenRejects(IllegalStateError, 'Impossible de supprimer cette agence : des clients y sont encore rattachés.');
    spec.given(created).when(remove({ hasUsers: true })).thenRejects(IllegalStateError, 'Impossible de supprimer cette agence : des utilisateurs y sont encore rattachés.');
  });
});

describe('when the agency was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Cette agence existe déjà.');
  });

  it('cannot update, delete or set the hours', () => {
    spec.given(created, deleted).when(update(fields)).thenRejects(NotFoundError, 'Agence introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Agence introuvable.');
    spec.given(created, deleted).when(setHoraires([])).thenRejects(NotFoundError, 'Agence introuvable.');
  });
});

describe('evolve', () => {
  it('ignores events that do not fit the state', () => {
    expect(spec.given(deleted).state).toEqual({ status: 'nonexistent' });
    expect(spec.given(created, deleted, { ...created, data: { ...created.data, nom: 'Autre' } }).state).toMatchObject({ status: 'deleted', nom: 'Agence Lyon' });
  });
});
