import { IllegalStateError, NotFoundError, ValidationError, type InstallationEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { installationDecider, type InstallationCommand } from './decide.js';

const spec = deciderSpec(installationDecider);
const installationId = IDS.installation;
const fields = { nom: 'SSI catégorie A', id_metier: IDS.metier, description: 'Centrale incendie', delai: 4, astreinte: 1, site_id: IDS.site };
const facts = { siteId: IDS.site, nom: 'SSI catégorie A', metierId: IDS.metier, description: 'Centrale incendie', delai: 4, astreinte: 1 as const };

const created: InstallationEvent = { type: 'InstallationCreated', data: { installationId, ...facts, createdAt: T0 } };
const deleted: InstallationEvent = { type: 'InstallationDeleted', data: { installationId, deletedAt: T1 } };

const create = (f: object = fields): InstallationCommand => ({ type: 'CreateInstallation', data: { installationId, fields: f as never, createdAt: T0 } });
const update = (f: object = fields): InstallationCommand => ({ type: 'UpdateInstallation', data: { installationId, fields: f as never, updatedAt: T2 } });
const remove = (hasOpenTickets = false): InstallationCommand => ({ type: 'DeleteInstallation', data: { installationId, hasOpenTickets, deletedAt: T2 } });

describe('when the installation does not exist', () => {
  it('creates it, the checkbox and the number input normalized', () => {
    spec.given().when(create({ ...fields, astreinte: true, delai: '4' })).then([created]);
  });

  it('stores astreinte 0 when not ticked', () => {
    spec
      .given()
      .when(create({ ...fields, astreinte: undefined }))
      .then([{ type: 'InstallationCreated', data: { installationId, ...facts, astreinte: 0, createdAt: T0 } }]);
  });

  it.each([
    ['nom', '', "Le nom de l'installation est obligatoire."],
    ['id_metier', '', 'Veuillez sélectionner un métier.'],
    ['description', ' ', 'La description est obligatoire.'],
    ['delai', '', 'Le délai est obligatoire.'],
    ['delai', 0, "Le délai doit être un nombre entier d'heures, d'au moins 1 heure."],
    // Issue 17: a delai of 3,000,000,000 overflowed the read model's integer and stopped the read side.
    ['delai', 3_000_000_000, 'Le délai ne peut pas dépasser 8760 heures (un an).'],
    ['delai', '8761', 'Le délai ne peut pas dépasser 8760 heures (un an).'],
    ['nom', 'SSI\u202Eeda', 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.'],
    ['description', 'Centrale\u200B', 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.'],
    ['site_id', null, 'Veuillez sélectionner un site.'],
  ])('refuses %s = %j', (field, value, message) => {
    spec.given().when(create({ ...fields, [field]: value })).thenRejects(ValidationError, message);
  });

  it('cannot update or delete it', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Installation introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Installation introuvable.');
  });
});

describe('when the installation exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created).when(create()).thenRejects(IllegalStateError, 'Cette installation existe déjà.');
  });

  it('records the whole installation after an edit', () => {
    spec
      .given(created)
      .when(update({ ...fields, delai: 8, astreinte: false }))
      .then([{ type: 'InstallationUpdated', data: { installationId, ...facts, delai: 8, astreinte: 0, updatedAt: T2 } }]);
  });

  it('accepts a delai of a year, and refuses one hour more on edit', () => {
    spec
      .given(created)
      .when(update({ ...fields, delai: 8760 }))
      .then([{ type: 'InstallationUpdated', data: { installationId, ...facts, delai: 8760, updatedAt: T2 } }]);
    spec.given(created).when(update({ ...fields, delai: 8761 })).thenRejects(ValidationError, 'Le délai ne peut pas dépasser 8760 heures (un an).');
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created).when(update({ ...fields, astreinte: '1' })).then([]);
  });

  it('refuses an edit below the 1-hour minimum', () => {
    spec.given(created).when(update({ ...fields, delai: 0.5 })).thenRejects(ValidationError, "Le délai doit être un nombre entier d'heures, d'au moins 1 heure.");
  });

  it('deletes an installation without open tickets', () => {
    spec.given(created).when(remove()).then([{ type: 'InstallationDeleted', data: { installationId, deletedAt: T2 } }]);
  });

  it('refuses to delete an installation with open tickets', () => {
    spec.given(created).when(remove(true)).thenRejects(IllegalStateError, 'Impossible de supprimer cette installation : des tickets sont encore ouverts.');
  });
});

describe('when the installation was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Cette installation existe déjà.');
  });

  it('cannot update or delete it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Installation introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Installation introuvable.');
  });

  it('stays deleted', () => {
    expect(spec.given(created, deleted, created).state.status).toBe('deleted');
  });
});
