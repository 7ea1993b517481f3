import { IllegalStateError, NotFoundError, ValidationError, type ClientEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { clientDecider, type ClientCommand } from './decide.js';

const spec = deciderSpec(clientDecider);
const clientId = IDS.client;
const fields = { nom: 'Clinique du Parc', adresse: '1 rue des Lilas', ville: 'Lyon', code_postal: '69003', agence_id: IDS.agence };
const facts = { nom: 'Clinique du Parc', adresse: '1 rue des Lilas', ville: 'Lyon', code_postal: '69003', agenceId: IDS.agence };

const created: ClientEvent = { type: 'ClientCreated', data: { clientId, ...facts, createdAt: T0 } };
const deleted: ClientEvent = { type: 'ClientDeleted', data: { clientId, deletedAt: T1 } };

const create = (f: object = fields): ClientCommand => ({ type: 'CreateClient', data: { clientId, fields: f as never, createdAt: T0 } });
const update = (f: object = fields): ClientCommand => ({ type: 'UpdateClient', data: { clientId, fields: f as never, updatedAt: T2 } });
const remove = (hasOpenTickets = false): ClientCommand => ({ type: 'DeleteClient', data: { clientId, hasOpenTickets, deletedAt: T2 } });

describe('when the client does not exist', () => {
  it('creates it with trimmed fields', () => {
    spec.given().when(create({ ...fields, nom: ' Clinique du Parc ' })).then([created]);
  });

  it('refuses a client without an agency with the spec alert', () => {
    spec.given().when(create({ ...fields, agence_id: '' })).thenRejects(ValidationError, 'Veuillez sélectionner une agence.');
    spec.given().when(create({ ...fields, agence_id: undefined })).thenRejects(ValidationError, 'Veuillez sélectionner une agence.');
  });

  it.each(['nom', 'adresse', 'ville', 'code_postal'])('refuses a missing %s', (field) => {
    spec.given().when(create({ ...fields, [field]: '' })).thenRejects(ValidationError, "Le nom, l'adresse, la ville et le code postal du client sont obligatoires.");
  });

  it.each(['nom', 'adresse', 'ville', 'code_postal'])('refuses a right-to-left override in %s (issue 17: names shown reversed)', (field) => {
    spec.given().when(create({ ...fields, [field]: '69\u202E003' })).thenRejects(ValidationError, 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.');
  });

  it('cannot update or delete it', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Client introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Client introuvable.');
  });
});

describe('when the client exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created).when(create()).thenRejects(IllegalStateError, 'Ce client existe déjà.');
  });

  it('records the whole client after an edit, agency move included', () => {
    spec
      .given(created)
      .when(update({ ...fields, ville: 'Villeurbanne', agence_id: IDS.agence2 }))
      .then([{ type: 'ClientUpdated', data: { clientId, ...facts, ville: 'Villeurbanne', agenceId: IDS.agence2, updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created).when(update({ ...fields, nom: 'Clinique du Parc  ' })).then([]);
  });

  it('refuses an edit that blanks a field', () => {
    spec.given(created).when(update({ ...fields, agence_id: null })).thenRejects(ValidationError, 'Veuillez sélectionner une agence.');
  });

  it('deletes a client without open tickets', () => {
    spec.given(created).when(remove()).then([{ type: 'ClientDeleted', data: { clientId, deletedAt: T2 } }]);
  });

  it('refuses to delete a client with open tickets', () => {
    spec.given(created).when(remove(true)).thenRejects(IllegalStateError, 'Impossible de supprimer ce client : des tickets sont encore ouverts.');
  });
});

describe('when the client was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Ce client existe déjà.');
  });

  it('cannot update or delete it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Client introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Client introuvable.');
  });
});

describe('evolve', () => {
  it('ignores an update of a deleted client', () => {
    expect(spec.given(created, deleted, { type: 'ClientUpdated', data: { clientId, ...facts, nom: 'X', updatedAt: T2 } }).state).toMatchObject({ status: 'deleted', nom: 'Clinique du Parc' });
  });
});
