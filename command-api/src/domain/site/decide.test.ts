import { IllegalStateError, NotFoundError, ValidationError, type SiteEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { siteDecider, type SiteCommand } from './decide.js';

const spec = deciderSpec(siteDecider);
const siteId = IDS.site;
const fields = { nom: 'Bâtiment A', adresse: '1 rue des Lilas', ville: 'Lyon', code_postal: '69003', client_id: IDS.client };
const facts = { clientId: IDS.client, nom: 'Bâtiment A', adresse: '1 rue des Lilas', ville: 'Lyon', code_postal: '69003' };

const created: SiteEvent = { type: 'SiteCreated', data: { siteId, ...facts, createdAt: T0 } };
const deleted: SiteEvent = { type: 'SiteDeleted', data: { siteId, deletedAt: T1 } };

const create = (f: object = fields): SiteCommand => ({ type: 'CreateSite', data: { siteId, fields: f as never, createdAt: T0 } });
const update = (f: object = fields): SiteCommand => ({ type: 'UpdateSite', data: { siteId, fields: f as never, updatedAt: T2 } });
const remove = (hasOpenTickets = false): SiteCommand => ({ type: 'DeleteSite', data: { siteId, hasOpenTickets, deletedAt: T2 } });

describe('when the site does not exist', () => {
  it('creates it', () => {
    spec.given().when(create()).then([created]);
  });

  it.each(['nom', 'adresse', 'ville', 'code_postal'])('refuses a missing %s with the spec alert', (field) => {
    spec.given().when(create({ ...fields, [field]: '  ' })).thenRejects(ValidationError, 'Tous les champs sont obligatoires !');
  });

  it('refuses a site without a client', () => {
    spec.given().when(create({ ...fields, client_id: '' })).thenRejects(ValidationError, 'Veuillez sélectionner un client.');
  });

  it('cannot update or delete it', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Site introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Site introuvable.');
  });
});

describe('when the site exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created).when(create()).thenRejects(IllegalStateError, 'Ce site existe déjà.');
  });

  it('records the whole site after an edit', () => {
    spec
      .given(created)
      .when(update({ ...fields, nom: 'Bâtiment B' }))
      .then([{ type: 'SiteUpdated', data: { siteId, ...facts, nom: 'Bâtiment B', updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created).when(update()).then([]);
  });

  it('refuses an edit with a blank field', () => {
    spec.given(created).when(update({ ...fields, ville: '' })).thenRejects(ValidationError, 'Tous les champs sont obligatoires !');
  });

  it('deletes a site without open tickets', () => {
    spec.given(created).when(remove()).then([{ type: 'SiteDeleted', data: { siteId, deletedAt: T2 } }]);
  });

  it('refuses to delete a site with open tickets', () => {
    spec.given(created).when(remove(true)).thenRejects(IllegalStateError, 'Impossible de supprimer ce site : des tickets sont encore ouverts.');
  });
});

describe('when the site was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Ce site existe déjà.');
  });

  it('cannot update or delete it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Site introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Site introuvable.');
  });

  it('stays deleted', () => {
    expect(spec.given(created, deleted).state.status).toBe('deleted');
  });
});
