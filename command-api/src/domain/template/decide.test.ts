import { IllegalStateError, NotFoundError, ValidationError, type TemplateEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { templateDecider, type TemplateCommand } from './decide.js';

const spec = deciderSpec(templateDecider);
const templateId = IDS.template;
const fields = { name: 'Rapport standard', content_html: '<h1>{{ticket.num_chrono}}</h1>', css: 'h1 { color: red; }' };

const created: TemplateEvent = { type: 'TemplateCreated', data: { templateId, ...fields, createdAt: T0 } };
const deleted: TemplateEvent = { type: 'TemplateDeleted', data: { templateId, deletedAt: T1 } };

const create = (f: object = fields): TemplateCommand => ({ type: 'CreateTemplate', data: { templateId, fields: f as never, createdAt: T0 } });
const update = (f: object = fields): TemplateCommand => ({ type: 'UpdateTemplate', data: { templateId, fields: f as never, updatedAt: T2 } });
const remove = (isAssignedToAgence = false): TemplateCommand => ({ type: 'DeleteTemplate', data: { templateId, isAssignedToAgence, deletedAt: T2 } });

describe('when the template does not exist', () => {
  it('creates it, the name trimmed and css empty when absent', () => {
    spec.given().when(create({ ...fields, name: ' Rapport standard ' })).then([created]);
    spec
      .given()
      .when(create({ name: 'Rapport', content_html: '<p>x</p>' }))
      .then([{ type: 'TemplateCreated', data: { templateId, name: 'Rapport', content_html: '<p>x</p>', css: '', createdAt: T0 } }]);
  });

  it('refuses a blank name or content with the spec message', () => {
    spec.given().when(create({ ...fields, name: '   ' })).thenRejects(ValidationError, 'Nom et contenu requis.');
    spec.given().when(create({ ...fields, content_html: '\n ' })).thenRejects(ValidationError, 'Nom et contenu requis.');
  });

  it('cannot update or delete it', () => {
    spec.given().when(update()).thenRejects(NotFoundError, 'Modèle introuvable.');
    spec.given().when(remove()).thenRejects(NotFoundError, 'Modèle introuvable.');
  });
});

describe('when the template exists', () => {
  it('refuses to create it twice', () => {
    spec.given(created).when(create()).thenRejects(IllegalStateError, 'Ce modèle existe déjà.');
  });

  it('records the whole template after a save', () => {
    spec
      .given(created)
      .when(update({ ...fields, content_html: '<h1>{{client.nom}}</h1>' }))
      .then([{ type: 'TemplateUpdated', data: { templateId, ...fields, content_html: '<h1>{{client.nom}}</h1>', updatedAt: T2 } }]);
  });

  it('appends nothing when a save changes nothing', () => {
    spec.given(created).when(update({ ...fields, id: templateId })).then([]);
  });

  it('refuses a save that empties the content', () => {
    spec.given(created).when(update({ ...fields, content_html: '' })).thenRejects(ValidationError, 'Nom et contenu requis.');
  });

  it('deletes a template no agency uses', () => {
    spec.given(created).when(remove()).then([{ type: 'TemplateDeleted', data: { templateId, deletedAt: T2 } }]);
  });

  it('refuses to delete a template an agency still uses', () => {
    spec.given(created).when(remove(true)).thenRejects(IllegalStateError, 'Impossible de supprimer ce modèle : il est affecté à une agence.');
  });
});

describe('when the template was deleted', () => {
  it('refuses to create it again with the same id', () => {
    spec.given(created, deleted).when(create()).thenRejects(IllegalStateError, 'Ce modèle existe déjà.');
  });

  it('cannot update or delete it', () => {
    spec.given(created, deleted).when(update()).thenRejects(NotFoundError, 'Modèle introuvable.');
    spec.given(created, deleted).when(remove()).thenRejects(NotFoundError, 'Modèle introuvable.');
  });

  it('stays deleted', () => {
    expect(spec.given(created, deleted).state.status).toBe('deleted');
  });
});
