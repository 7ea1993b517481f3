import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgenceEvent, TemplateEvent } from '@fsm/contracts';
import { at } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { templatesProjector } from './templates-projector.js';
import { findTemplate, isTemplateAssigned, listTemplates } from './templates-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_templates', [agencesProjector, templatesProjector]);
const { given, rebuild, redeliver } = h;

function agence(id: string, templateId: string | null, type: 'AgenceCreated' | 'AgenceUpdated' = 'AgenceCreated'): AgenceEvent {
  const facts = { agenceId: id, nom: 'Lyon', adresse: '1 rue du Feu', cp_postal: '69001', ville: 'Lyon', telephone: '0400000000', templateId };
  return type === 'AgenceCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}
function template(id: string, name: string, type: 'TemplateCreated' | 'TemplateUpdated' = 'TemplateCreated'): TemplateEvent {
  const facts = { templateId: id, name, content_html: `<h1>${name}</h1><p>{{ticket.num_chrono}}</p>`, css: 'h1 { color: red; }' };
  return type === 'TemplateCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

const table = () => h.selectAll('rm.templates');

describe('templates read model', () => {
  const [rapport, devis, gone] = [randomUUID(), randomUUID(), randomUUID()];
  const [lyon, paris] = [randomUUID(), randomUUID()];
  const streams = [rapport, devis, gone].map((id) => `template-${id}`);

  beforeAll(async () => {
    await given(`template-${rapport}`, [template(rapport, 'rapport'), template(rapport, "Rapport d'intervention", 'TemplateUpdated')]);
    await given(`template-${devis}`, [template(devis, 'Devis')]);
    await given(`template-${gone}`, [template(gone, 'Ancien'), { type: 'TemplateDeleted', data: { templateId: gone, deletedAt: at } }]);
  });

  it('lists live templates by name with their content', async () => {
    expect(await listTemplates(h.pool)).toEqual([
      { id: devis, name: 'Devis', content_html: '<h1>Devis</h1><p>{{ticket.num_chrono}}</p>', css: 'h1 { color: red; }', version: 0 },
      { id: rapport, name: "Rapport d'intervention", content_html: "<h1>Rapport d'intervention</h1><p>{{ticket.num_chrono}}</p>", css: 'h1 { color: red; }', version: 1 },
    ]);
    expect(await findTemplate(h.pool, rapport)).toMatchObject({ name: "Rapport d'intervention" });
    expect(await findTemplate(h.pool, gone)).toBeNull();
  });

  it('tells whether a live agency uses a template', async () => {
    expect(await isTemplateAssigned(h.pool, rapport)).toBe(false);
    await given(`agence-${lyon}`, [agence(lyon, rapport)]);
    await given(`agence-${paris}`, [agence(paris, devis)]);
    expect(await isTemplateAssigned(h.pool, rapport)).toBe(true);
    await given(`agence-${lyon}`, [agence(lyon, null, 'AgenceUpdated')]);
    expect(await isTemplateAssigned(h.pool, rapport)).toBe(false);
    await given(`agence-${paris}`, [{ type: 'AgenceDeleted', data: { agenceId: paris, deletedAt: at } }]);
    expect(await isTemplateAssigned(h.pool, devis)).toBe(false);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    const before = await listTemplates(h.pool);
    await given(`template-${rapport}`, [template(rapport, "Rapport d'intervention", 'TemplateUpdated')]);
    const after = await listTemplates(h.pool);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    expect(after.find((row) => row.id === rapport)?.version).toBe(2);
    await expectSameRows(table, () => redeliver(streams));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
