import { IllegalStateError, NotFoundError, ValidationError, type InterlocuteurEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { interlocuteurDecider, type InterlocuteurCommand } from './decide.js';

const spec = deciderSpec(interlocuteurDecider);
const interlocuteurId = IDS.interlocuteur;
const fields = {
  nom: 'Durand', prenom: 'Paul', fonction: 'Responsable sécurité', telephone: '0612345678', email: 'paul.durand@example.fr',
  client_id: IDS.client, affect_sites: [IDS.site], affect_installations: [IDS.installation],
};
const facts = {
  clientId: IDS.client, nom: 'Durand', prenom: 'Paul', fonction: 'Responsable sécurité', telephone: '0612345678', email: 'paul.durand@example.fr',
  siteIds: [IDS.site], installationIds: [IDS.installation],
};

const created: InterlocuteurEvent = { type: 'InterlocuteurCreated', data: { interlocuteurId, ...facts, createdAt: T0 } };
const deleted: InterlocuteurEvent = { type: 'InterlocuteurDeleted', data: { interlocuteurId, deletedAt: T1 } };

const create = (f: object = fields): InterlocuteurCommand => ({ type: 'CreateInterlocuteur', data: { interlocuteurId, fields: f as never, createdAt: T0 } });
const update = (f: object = fields): InterlocuteurCommand => ({ type: 'UpdateInterlocuteur', data: { interlocuteurId, fields: f as never, updatedAt: T2 } });
const remove: InterlocuteurCommand = { type: 'DeleteInterlocuteur', data: { interlocuteurId, deletedAt: T2 } };

describe('when the contact does not exist', () => {
  it('creates it with its affectations', () => {
    spec.given().when(create()).then([created]);
  });

  it('needs only prenom and nom; the rest is stored as null or empty', () => {
    spec
      .given()
      .when(create({ nom: 'Durand', prenom: 'Paul', client_id: IDS.client }))
      .then([{
        type: 'InterlocuteurCreated',
        data: { interlocuteurId, clientId: IDS.client, nom: 'Durand', prenom: 'Paul', fonction: null, telephone: null, email: null, siteIds: [], installationIds: [], createdAt: T0 },
      }]);
  });

  it('refuses a missing prenom or nom', () => {
    spec.given().when(create({ ...fields, prenom: '' })).thenRejects(ValidationError, 'Le nom et le prénom sont obligatoires.');
    spec.given().when(create({ ...fields, nom: undefined })).thenRejects(ValidationError, 'Le nom et le prénom sont obligatoires.');
  });

  it('refuses an invalid e-mail and a contact without client', () => {
    spec.given().when(create({ ...fields, email: 'paul@' })).thenRejects(ValidationError, 'Adresse e-mail invalide.');
    spec.given().when(create({ ...fields, client_id: '' })).thenRejects(ValidationError, 'Veuillez sélectionner un client.');
  });

  it('cannot update or delete it', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Interlocuteur introuvable.');
    spec.given().when(remove).thenRejects(NotFoundError, 'Interlocuteur introuvable.');
  });
});

describe('when the contact exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created).when(create()).thenRejects(IllegalStateError, 'Cet interlocuteur existe déjà.');
  });

  it('replaces the affectations as a whole', () => {
    spec
      .given(created)
      .when(update({ ...fields, affect_sites: [IDS.site, IDS.site2], affect_installations: [] }))
      .then([{ type: 'InterlocuteurUpdated', data: { interlocuteurId, ...facts, siteIds: [IDS.site, IDS.site2], installationIds: [], updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing, affectations in another order included', () => {
    const two: InterlocuteurEvent = { type: 'InterlocuteurUpdated', data: { interlocuteurId, ...facts, siteIds: [IDS.site, IDS.site2], updatedAt: T1 } };
    spec.given(created, two).when(update({ ...fields, affect_sites: [IDS.site2, IDS.site, IDS.site] })).then([]);
  });

  it('refuses an edit that blanks the name', () => {
    spec.given(created).when(update({ ...fields, nom: ' ' })).thenRejects(ValidationError, 'Le nom et le prénom sont obligatoires.');
  });

  it('deletes it', () => {
    spec.given(created).when(remove).then([{ type: 'InterlocuteurDeleted', data: { interlocuteurId, deletedAt: T2 } }]);
  });
});

describe('when the contact was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Cet interlocuteur existe déjà.');
  });

  it('cannot update or delete it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Interlocuteur introuvable.');
    spec.given(created, deleted).when(remove).thenRejects(NotFoundError, 'Interlocuteur introuvable.');
  });

  it('keeps the facts it had', () => {
    expect(spec.given(created, deleted).state).toMatchObject({ status: 'deleted', nom: 'Durand' });
  });
});
