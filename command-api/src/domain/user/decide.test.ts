import { IllegalStateError, NotFoundError, ValidationError, defaultPermissionsForRole, type UserEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { userDecider, type UserCommand } from './decide.js';

const spec = deciderSpec(userDecider);
const userId = IDS.user;

// ---------------------------------------------------------------------------
// Staff users
// ---------------------------------------------------------------------------

const fields = { nom: 'Martin', prenom: 'Léa', email: 'Lea.Martin@Example.fr', telephone: '0612345678', role: 'technicien', agence_id: IDS.agence };
const facts = { role: 'technicien' as const, nom: 'Martin', prenom: 'Léa', email: 'lea.martin@example.fr', telephone: '0612345678', agenceId: IDS.agence };

const created: UserEvent = { type: 'UserCreated', data: { userId, ...facts, createdAt: T0 } };
const defaults: UserEvent = { type: 'UserPermissionsSet', data: { userId, permissions: ['tickets.devis'], updatedAt: T0 } };
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, deletedAt: T1 } };

const create = (f: object = fields, emailTaken = false): UserCommand => ({ type: 'CreateUser', data: { userId, fields: f as never, emailTaken, createdAt: T0 } });
const update = (f: object = fields, emailTaken = false): UserCommand => ({ type: 'UpdateUser', data: { userId, fields: f as never, emailTaken, updatedAt: T2 } });
const remove = (deletedBy: string = IDS.user2): UserCommand => ({ type: 'DeleteUser', data: { userId, deletedBy, deletedAt: T2 } });
const setPermissions = (permissions: unknown): UserCommand => ({ type: 'SetUserPermissions', data: { userId, permissions, updatedAt: T2 } });

describe('when the user does not exist', () => {
  it('creates it with its role default permissions, the e-mail lower-cased', () => {
    spec.given().when(create()).then([created, defaults]);
  });

  it('gives an admin the admin defaults', () => {
    const [, permissions] = spec.given().when(create({ ...fields, role: 'admin' })).then([
      { type: 'UserCreated', data: { userId, ...facts, role: 'admin', createdAt: T0 } },
      { type: 'UserPermissionsSet', data: { userId, permissions: defaultPermissionsForRole('admin'), updatedAt: T0 } },
    ]);
    expect(permissions?.data).toMatchObject({ permissions: expect.arrayContaining(['users.edit', 'tickets.stats']) });
  });

  it.each([
    ['nom', 'Le nom est obligatoire.'],
    ['prenom', 'Le prénom est obligatoire.'],
    ['email', "L'email est obligatoire."],
    ['telephone', 'Le téléphone est obligatoire.'],
    ['agence_id', 'Veuillez sélectionner une agence.'],
  ])('refuses a missing %s', (field, message) => {
    spec.given().when(create({ ...fields, [field]: '' })).thenRejects(ValidationError, message);
  });

  it('refuses the telesurveillance role on the users screen', () => {
    spec.given().when(create({ ...fields, role: 'telesurveillance' })).thenRejects(ValidationError, 'Veuillez sélectionner un rôle.');
  });

  it('refuses an e-mail already used by another account', () => {
    spec.given().when(create(fields, true)).thenRejects(ValidationError, 'Cette adresse e-mail est déjà utilisée.');
  });

  it('cannot update, delete or set permissions', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Utilisateur introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Utilisateur introuvable.');
    spec.given().when(setPermissions([])).thenRejects(NotFoundError, 'Utilisateur introuvable.');
  });
});

describe('when the user exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created, defaults).when(create()).thenRejects(IllegalStateError, 'Cet utilisateur existe déjà.');
  });

  it('records the whole user after an edit and keeps its permissions when the role stays', () => {
    spec
      .given(created, defaults)
      .when(update({ ...fields, telephone: '0699999999' }))
      .then([{ type: 'UserUpdated', data: { userId, ...facts, telephone: '0699999999', updatedAt: T2 } }]);
  });

  it('resets the permissions to the new role defaults on a role change', () => {
    spec
      .given(created, defaults)
      .when(update({ ...fields, role: 'technicien_plus' }))
      .then([
        { type: 'UserUpdated', data: { userId, ...facts, role: 'technicien_plus', updatedAt: T2 } },
        { type: 'UserPermissionsSet', data: { userId, permissions: ['clients.view', 'tickets.stats', 'tickets.devis'], updatedAt: T2 } },
      ]);
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created, defaults).when(update({ ...fields, email: ' lea.martin@example.fr ' })).then([]);
  });

  it('refuses an edit to an e-mail used elsewhere or with a blank field', () => {
    spec.given(created).when(update({ ...fields, email: 'autre@example.fr' }, true)).thenRejects(ValidationError, 'Cette adresse e-mail est déjà utilisée.');
    spec.given(created).when(update({ ...fields, prenom: ' ' })).thenRejects(ValidationError, 'Le prénom est obligatoire.');
  });

  it('sets the whole permission set in catalogue order', () => {
    spec
      .given(created, defaults)
      .when(setPermissions(['tickets.devis', 'clients.view', 'clients.view']))
      .then([{ type: 'UserPermissionsSet', data: { userId, permissions: ['clients.view', 'tickets.devis'], updatedAt: T2 } }]);
  });

  it('appends nothing when the permission set is unchanged', () => {
    spec.given(created, defaults).when(setPermissions(['tickets.devis'])).then([]);
  });

  it('refuses an unknown permission or a non-list', () => {
    spec.given(created).when(setPermissions(['tickets.delete'])).thenRejects(ValidationError, 'Permission inconnue : tickets.delete');
    spec.given(created).when(setPermissions('tickets.devis')).thenRejects(ValidationError, 'Les permissions doivent être une liste.');
  });

  it('deletes it', () => {
    spec.given(created).when(remove()).then([{ type: 'UserDeleted', data: { userId, deletedAt: T2 } }]);
  });

  it('refuses that a user deletes their own account', () => {
    spec.given(created).when(remove(userId)).thenRejects(IllegalStateError, 'Vous ne pouvez pas supprimer votre propre compte.');
  });

  it('is not a remote-surveillance account for the telesurv commands', () => {
    spec
      .given(created)
      .when({ type: 'UpdateTelesurvAccount', data: { userId, fields: { nom: 'X', email: 'x@example.fr' }, emailTaken: false, updatedAt: T2 } })
      .thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given(created).when({ type: 'SetTelesurvAgences', data: { userId, agences: [], updatedAt: T2 } }).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given(created).when({ type: 'DeleteTelesurvAccount', data: { userId, deletedAt: T2 } }).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
  });
});

describe('when the user was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Cet utilisateur existe déjà.');
  });

  it('cannot update, delete or set permissions', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Utilisateur introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Utilisateur introuvable.');
    spec.given(created, deleted).when(setPermissions([])).thenRejects(NotFoundError, 'Utilisateur introuvable.');
  });
});

// ---------------------------------------------------------------------------
// Remote-surveillance accounts
// ---------------------------------------------------------------------------

const tsFields = { nom: 'Centrale Surveil', email: 'Veille@Surveil.fr', telephone: '' };
const tsFacts = { role: 'telesurveillance' as const, nom: 'Centrale Surveil', prenom: '', email: 'veille@surveil.fr', telephone: null, agenceId: null };
const tsCreated: UserEvent = { type: 'UserCreated', data: { userId, ...tsFacts, createdAt: T0 } };
const tsAgences: UserEvent = { type: 'TelesurvAgencesSet', data: { userId, agenceIds: [IDS.agence, IDS.agence2], updatedAt: T1 } };
const tsDeleted: UserEvent = { type: 'UserDeleted', data: { userId, deletedAt: T1 } };

const tsCreate = (f: object = tsFields, emailTaken = false): UserCommand => ({ type: 'CreateTelesurvAccount', data: { userId, fields: f as never, emailTaken, createdAt: T0 } });
const tsUpdate = (f: object = tsFields, emailTaken = false): UserCommand => ({ type: 'UpdateTelesurvAccount', data: { userId, fields: f as never, emailTaken, updatedAt: T2 } });
const tsDelete: UserCommand = { type: 'DeleteTelesurvAccount', data: { userId, deletedAt: T2 } };
const tsSetAgences = (agences: unknown): UserCommand => ({ type: 'SetTelesurvAgences', data: { userId, agences, updatedAt: T2 } });

describe('when the remote-surveillance account does not exist', () => {
  it('creates a user with role telesurveillance, no first name, no agency and no permission', () => {
    spec.given().when(tsCreate()).then([tsCreated]);
  });

  it.each(['nom', 'email'])('refuses a missing %s with the spec alert', (field) => {
    spec.given().when(tsCreate({ ...tsFields, [field]: '' })).thenRejects(ValidationError, 'Nom, email et mot de passe sont requis');
  });

  it('refuses an e-mail already used', () => {
    spec.given().when(tsCreate(tsFields, true)).thenRejects(ValidationError, 'Cette adresse e-mail est déjà utilisée.');
  });

  it('cannot update, delete or assign agencies', () => {
    spec.given().when(tsUpdate()).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given().when(tsDelete).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given().when(tsSetAgences([])).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
  });
});

describe('when the remote-surveillance account exists', () => {
  it('refuses to create it twice', () => {
    spec.given(tsCreated).when(tsCreate()).thenRejects(IllegalStateError, 'Cet utilisateur existe déjà.');
  });

  it('edits nom, email and telephone', () => {
    spec
      .given(tsCreated)
      .when(tsUpdate({ ...tsFields, telephone: '0400000000' }))
      .then([{ type: 'UserUpdated', data: { userId, ...tsFacts, telephone: '0400000000', updatedAt: T2 } }]);
  });

  it('appends nothing when an edit changes nothing, and refuses a blank nom', () => {
    spec.given(tsCreated).when(tsUpdate()).then([]);
    spec.given(tsCreated).when(tsUpdate({ ...tsFields, nom: '' })).thenRejects(ValidationError, 'Nom et email sont requis');
  });

  it('replaces the agency set as a whole, duplicates dropped', () => {
    spec.given(tsCreated).when(tsSetAgences([IDS.agence, IDS.agence2, IDS.agence])).then([{ ...tsAgences, data: { ...tsAgences.data, updatedAt: T2 } }]);
    spec.given(tsCreated, tsAgences).when(tsSetAgences([])).then([{ type: 'TelesurvAgencesSet', data: { userId, agenceIds: [], updatedAt: T2 } }]);
  });

  it('appends nothing when the same agencies come in another order', () => {
    spec.given(tsCreated, tsAgences).when(tsSetAgences([IDS.agence2, IDS.agence])).then([]);
  });

  it('refuses an agency list that is not one', () => {
    spec.given(tsCreated).when(tsSetAgences(['lyon'])).thenRejects(ValidationError, 'Agence invalide.');
  });

  it('deletes it', () => {
    spec.given(tsCreated).when(tsDelete).then([{ type: 'UserDeleted', data: { userId, deletedAt: T2 } }]);
  });

  it('is kept out of the staff commands', () => {
    spec.given(tsCreated).when(update()).thenRejects(IllegalStateError, "Ce compte est un compte télésurveillance : modifiez-le depuis l'écran Télésurveillance.");
    spec.given(tsCreated).when(remove()).thenRejects(IllegalStateError, "Ce compte est un compte télésurveillance : modifiez-le depuis l'écran Télésurveillance.");
    spec.given(tsCreated).when(setPermissions(['clients.view'])).thenRejects(IllegalStateError, "Un compte télésurveillance n'a pas de permissions.");
  });
});

describe('when the remote-surveillance account was deleted', () => {
  it('cannot be edited, deleted or assigned again', () => {
    spec.given(tsCreated, tsDeleted).when(tsUpdate()).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given(tsCreated, tsDeleted).when(tsDelete).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
    spec.given(tsCreated, tsDeleted).when(tsSetAgences([IDS.agence])).thenRejects(NotFoundError, 'Compte télésurveillance introuvable.');
  });

  it('refuses to create it again with the same id', () => {
    spec.given(tsCreated, tsDeleted).when(tsCreate()).thenRejects(IllegalStateError, 'Cet utilisateur existe déjà.');
  });
});

describe('evolve', () => {
  it('tracks permissions and agencies', () => {
    expect(spec.given(created, defaults).state).toMatchObject({ status: 'active', permissions: ['tickets.devis'], agenceIds: [] });
    expect(spec.given(tsCreated, tsAgences).state).toMatchObject({ status: 'active', agenceIds: [IDS.agence, IDS.agence2] });
  });
});
