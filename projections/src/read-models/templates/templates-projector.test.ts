import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgenceEvent, TemplateEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, type ReadModelHarness } from '../../test-support/read-model-harness.js';
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

let appended: string | null = null;

/** Appends and waits for these events themselves: the harness waits for the store's head, which can lag while other databases' transactions run. */
async function given(stream: string, events: readonly { type: string; data: unknown }[]): Promise<void> {
  const { position } = await h.given(stream, events);
  if (appended === null || h.store.comparePositions(position, appended) > 0) appended = position;
  await caughtUp();
}

async function caughtUp(): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await h.pool.query<{ position: string | null; rebuild_requested: boolean }>(
      'SELECT position, rebuild_requested FROM proj.checkpoints WHERE name = $1',
      [h.runner.name],
    );
    const row = rows[0];
    if (row && !row.rebuild_requested && (appended === null || (row.position !== null && h.store.comparePositions(row.position, appended) >= 0))) return;
    if (Date.now() > deadline) throw new Error('read models did not catch up within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function rebuild(): Promise<void> {
  await h.rebuild();
  await caughtUp();
}

/**
 * Delivers every event of the streams again with its original revision, newest
 * first, so that each older event also arrives late: the revision guards must
 * leave every row as it is.
 */
async function redeliver(streams: readonly string[]): Promise<void> {
  const tx = await h.pool.connect();
  try {
    await tx.query('BEGIN');
    for (const stream of streams) {
      for (const event of (await h.store.readStream(stream)).reverse()) {
        for (const projector of projectors) if (projector.handles.includes(event.type)) await projector.apply(tx, event);
      }
    }
    await tx.query('COMMIT');
  } finally {
    tx.release();
  }
}

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
      { id: devis, name: 'Devis', content_html: '<h1>Devis</h1><p>{{ticket.num_chrono}}</p>', css: 'h1 { color: red; }' },
      { id: rapport, name: "Rapport d'intervention", content_html: "<h1>Rapport d'intervention</h1><p>{{ticket.num_chrono}}</p>", css: 'h1 { color: red; }' },
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
    expect(await listTemplates(h.pool)).toEqual(before);
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
