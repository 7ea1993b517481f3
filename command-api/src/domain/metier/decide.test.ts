import { IllegalStateError, NotFoundError, ValidationError, type MetierEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { metiersDecider, type MetierCommand } from './decide.js';

const spec = deciderSpec(metiersDecider);
const metierId = IDS.metier;
const fields = { nom: 'Sécurité incendie', ordre: 1, delai_inter: 4, HO_stats: 0 };
const facts = { nom: 'Sécurité incendie', ordre: 1, delai_inter: 4, HO_stats: 0 as const };

const created: MetierEvent = { type: 'MetierCreated', data: { metierId, ...facts, createdAt: T0 } };
const created2: MetierEvent = { type: 'MetierCreated', data: { metierId: IDS.metier2, nom: 'Désenfumage', ordre: 2, delai_inter: null, HO_stats: 1, createdAt: T0 } };
const deleted: MetierEvent = { type: 'MetierDeleted', data: { metierId, deletedAt: T1 } };

const create = (f: object = fields, id: string = metierId): MetierCommand => ({ type: 'CreateMetier', data: { metierId: id, fields: f as never, createdAt: T0 } });
const update = (f: object = fields, id: string = metierId): MetierCommand => ({ type: 'UpdateMetier', data: { metierId: id, fields: f as never, updatedAt: T2 } });
const remove = (usedByInstallations = false): MetierCommand => ({ type: 'DeleteMetier', data: { metierId, usedByInstallations, deletedAt: T2 } });
const reorder = (items: unknown): MetierCommand => ({ type: 'ReorderMetiers', data: { items: items as never, reorderedAt: T2 } });

describe('when the catalogue is empty', () => {
  it('creates a trade', () => {
    spec.given().when(create()).then([created]);
  });

  it('stores empty ordre and delai_inter as null, floors delai_inter and takes the HO_stats checkbox', () => {
    spec
      .given()
      .when(create({ nom: ' Extincteurs ', ordre: '', delai_inter: '', HO_stats: true }))
      .then([{ type: 'MetierCreated', data: { metierId, nom: 'Extincteurs', ordre: null, delai_inter: null, HO_stats: 1, createdAt: T0 } }]);
    spec
      .given()
      .when(create({ ...fields, delai_inter: 2.9 }))
      .then([{ type: 'MetierCreated', data: { metierId, ...facts, delai_inter: 2, createdAt: T0 } }]);
  });

  it('refuses a trade without a name, a negative delay or a broken ordre', () => {
    spec.given().when(create({ ...fields, nom: '' })).thenRejects(ValidationError, 'Le nom du métier est obligatoire.');
    spec.given().when(create({ ...fields, delai_inter: -1 })).thenRejects(ValidationError, "Le délai d'intervention doit être positif ou nul.");
    spec.given().when(create({ ...fields, ordre: 'premier' })).thenRejects(ValidationError, "L'ordre doit être un nombre entier.");
  });

  it('refuses an ordre or a delay the read model cannot hold (issue 17: ordre 3,000,000,000 stopped the read side)', () => {
    spec.given().when(create({ ...fields, ordre: 3_000_000_000 })).thenRejects(ValidationError, "L'ordre doit être compris entre -99999 et 99999.");
    spec.given().when(create({ ...fields, ordre: -100_000 })).thenRejects(ValidationError, "L'ordre doit être compris entre -99999 et 99999.");
    spec.given().when(create({ ...fields, delai_inter: 3e9 })).thenRejects(ValidationError, "Le délai d'intervention ne peut pas dépasser 8760 heures (un an).");
    spec.given().when(create({ ...fields, nom: 'SSI\u202Eeda' })).thenRejects(ValidationError, 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.');
    spec
      .given()
      .when(create({ ...fields, ordre: -99_999, delai_inter: 8760 }))
      .then([{ type: 'MetierCreated', data: { metierId, ...facts, ordre: -99_999, delai_inter: 8760, createdAt: T0 } }]);
  });

  it('cannot update, delete or reorder a trade', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Métier introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Métier introuvable.');
    spec.given().when(reorder([{ id: metierId, ordre: 1 }])).thenRejects(NotFoundError, 'Métier introuvable.');
  });

  it('appends nothing for an empty reorder', () => {
    spec.given().when(reorder([])).then([]);
  });
});

describe('when trades exist', () => {
  it('refuses to create the same id twice', () => {
    spec.given(created).when(create({ ...fields, nom: 'Autre' })).thenRejects(IllegalStateError, 'Ce métier existe déjà.');
  });

  it('refuses a second trade with the same name, whatever the case', () => {
    spec.given(created).when(create({ ...fields, nom: 'sécurité  INCENDIE' }, IDS.metier3)).thenRejects(ValidationError, 'Un métier porte déjà ce nom.');
    spec.given(created, created2).when(update({ ...fields, nom: 'désenfumage' })).thenRejects(ValidationError, 'Un métier porte déjà ce nom.');
  });

  it('updates a trade, the HO_stats toggle included', () => {
    spec
      .given(created)
      .when(update({ ...fields, HO_stats: 1 }))
      .then([{ type: 'MetierUpdated', data: { metierId, ...facts, HO_stats: 1, updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing, keeping its own name', () => {
    spec.given(created).when(update({ ...fields, delai_inter: '4' })).then([]);
  });

  it('records only the ranks a drag changed', () => {
    spec
      .given(created, created2)
      .when(reorder([{ id: IDS.metier2, ordre: 1 }, { id: metierId, ordre: 2 }]))
      .then([{ type: 'MetiersReordered', data: { items: [{ metierId: IDS.metier2, ordre: 1 }, { metierId, ordre: 2 }], reorderedAt: T2 } }]);
    spec.given(created, created2).when(reorder([{ id: metierId, ordre: 1 }, { id: IDS.metier2, ordre: 3 }])).then([
      { type: 'MetiersReordered', data: { items: [{ metierId: IDS.metier2, ordre: 3 }], reorderedAt: T2 } },
    ]);
    spec.given(created, created2).when(reorder([{ id: metierId, ordre: 1 }, { id: IDS.metier2, ordre: 2 }])).then([]);
  });

  it('refuses a reorder to a rank the read model cannot hold', () => {
    spec.given(created, created2).when(reorder([{ id: metierId, ordre: 3_000_000_000 }])).thenRejects(ValidationError, "L'ordre doit être compris entre -99999 et 99999.");
  });

  it('refuses a reorder naming an unknown trade or one trade twice', () => {
    spec.given(created).when(reorder([{ id: IDS.metier3, ordre: 1 }])).thenRejects(NotFoundError, 'Métier introuvable.');
    spec.given(created).when(reorder([{ id: metierId, ordre: 1 }, { id: metierId, ordre: 2 }])).thenRejects(ValidationError, "Chaque métier ne peut figurer qu'une fois dans le nouvel ordre.");
  });

  it('deletes a trade no installation uses', () => {
    spec.given(created).when(remove()).then([{ type: 'MetierDeleted', data: { metierId, deletedAt: T2 } }]);
  });

  it('refuses to delete a trade installations still use', () => {
    spec.given(created).when(remove(true)).thenRejects(IllegalStateError, "Impossible de supprimer ce métier : des installations l'utilisent encore.");
  });
});

describe('when a trade was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Ce métier existe déjà.');
  });

  it('frees its name for a new trade', () => {
    spec
      .given(created, deleted)
      .when(create(fields, IDS.metier3))
      .then([{ type: 'MetierCreated', data: { metierId: IDS.metier3, ...facts, createdAt: T0 } }]);
  });

  it('cannot update, delete or reorder it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Métier introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Métier introuvable.');
    spec.given(created, deleted).when(reorder([{ id: metierId, ordre: 5 }])).thenRejects(NotFoundError, 'Métier introuvable.');
  });
});

describe('evolve', () => {
  it('applies a reorder to active trades only', () => {
    const reordered: MetierEvent = { type: 'MetiersReordered', data: { items: [{ metierId, ordre: 9 }, { metierId: IDS.metier2, ordre: 1 }], reorderedAt: T2 } };
    const state = spec.given(created, created2, { type: 'MetierDeleted', data: { metierId: IDS.metier2, deletedAt: T1 } }, reordered).state;
    expect(state.metiers[metierId]).toMatchObject({ status: 'active', ordre: 9 });
    expect(state.metiers[IDS.metier2]).toMatchObject({ status: 'deleted', ordre: 2 });
  });
});
