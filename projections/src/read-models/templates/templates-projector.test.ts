import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgenceEvent, TemplateEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, withoutVersions, type ReadModelHarness } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { templatesProjector } from './templates-projector.js';
import { findTemplate, isTemplateAssigned, listTemplates } from './templates-queries.js';

const projectors: Projector[] = [agencesProjector, templatesProjector];
let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_templates', projectors);
  // close() drops the database WITH (FORCE) before the ended pool's sockets are closed: their FATAL is expected, not a failure.
  h.pool.on('error', () => undefined);
});
afterAll(async () => h?.close());

const at = '2026-11-20T08:00:00.000Z';

function agence(id: string, templateId: string | null, type: 'AgenceCreated' | 'AgenceUpdated' = 'AgenceCreated'): AgenceEvent {
  const facts = { agenceId: id, nom: 'Lyon', adresse: '1 rue du Feu', cp_postal: '69001', ville: 'Lyon', telephone: '0400000000', templateId };
  return type === 'AgenceCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}
function template(id: string, name: string, type: 'TemplateCreated' | 'TemplateUpdated' = 'TemplateCreated'): TemplateEvent {
  const facts = { templateId: id, name, content_html: `<h1>${name}</h1><p>{{ticket.num_chrono}}</p>`, css: 'h1 { color: red; }' };
  return type === 'TemplateCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

// The harness waits for each append's own position and replays through the real projectors.
const given = async (stream: string, events: readonly { type: string; data: unknown }[]): Promise<void> => {
  await h.given(stream, events);
};
const rebuild = (): Promise<void> => h.rebuild();
const redeliver = (streams: readonly string[]): Promise<void> => h.redeliver(streams);

const table = async () => (await h.pool.query('SELECT * FROM rm.templates ORDER BY id')).rows;

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
    const rows = await table();
    await redeliver(streams);
    expect(await table()).toEqual(rows);
  });

  it('gives the same rows after a rebuild', async () => {
    const before = await table();
    await rebuild();
    expect(await table()).toEqual(before);
  });
});
