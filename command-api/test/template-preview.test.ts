import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_PREVIEW_MESSAGES, TEMPLATE_PREVIEW_QUEUE, UnavailableError, imageTooLargeMessage } from '@fsm/contracts';
import { craftedPng, craftedWebp } from '@fsm/contracts/test-support';
import { createThreadRenderer, startWorkers, type RunningWorkers } from '@fsm/workers';
import { pdfText } from '@fsm/workers/test-support';
import { createBullPreviewer } from '../src/previews/template-previewer.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

/*
 * 'Preview A4' (management.md §4): POST /api/templates/preview hands the
 * editor's content to the real workers over BullMQ and answers the PDF they
 * render with the sample closed ticket, as a real report would be rendered.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let h: ApiHarness;
let workers: RunningWorkers;
let admin: TestUser;
let telesurv: TestUser;

async function eventCount(): Promise<number> {
  const { rows } = await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events');
  return Number(rows[0]?.n);
}

beforeAll(async () => {
  h = await createApiHarness('api_template_preview');
  workers = await startWorkers({ env: { ...h.deps.env, REDIS_URL: redisUrl }, pool: h.pool, store: h.store, logger: pino({ level: 'silent' }), queuePrefix: h.queuePrefix, reactor: false });
  const agenceId = await h.createAgence();
  admin = await h.createUser({ role: 'admin', agenceId });
  telesurv = await h.createUser({ role: 'telesurveillance' });
});

afterAll(async () => {
  await workers?.close();
  const queue = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: redisUrl }, prefix: h.queuePrefix });
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await h?.close();
});

describe('POST /api/templates/preview', () => {
  it('answers the PDF the workers render, with the sample ticket in the variables, and writes nothing', async () => {
    const before = await eventCount();
    const response = await h.request(admin, {
      method: 'POST',
      url: '/api/templates/preview',
      payload: { content_html: '<h1>Rapport {{ticket.num_chrono}}</h1><p>Client : {{client.nom}}</p><p>{{ticket.constat_tech}}</p><p>{{signature.client}}</p><script>alert(1)</script>' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Rapport LYO-2026-00042');
    expect(text).toContain('Client : Clinique du Parc');
    expect(text).toContain('Détecteur optique de la chambre 214 encrassé');
    // The signature prints with its evidence, as in a real report.
    expect(text).toContain('Claire Martin');
    expect(text).not.toContain('alert(1)');
    expect(await eventCount()).toBe(before);
  });

  it('refuses empty content with the French message', async () => {
    const empty = await h.request(admin, { method: 'POST', url: '/api/templates/preview', payload: { content_html: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'Nom et contenu requis.' });
  });

  it('is refused without a template permission', async () => {
    const response = await h.request(telesurv, { method: 'POST', url: '/api/templates/preview', payload: { content_html: '<p>x</p>' } });
    expect(response.statusCode).toBe(403);
    const anonymous = await h.request(null, { method: 'POST', url: '/api/templates/preview', payload: { content_html: '<p>x</p>' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('inline images of a template', () => {
  const oversized = `data:image/png;base64,${craftedPng(12_000, 12_000).toString('base64')}`;
  const refusal = imageTooLargeMessage({ width: 12_000, height: 12_000 });
  let manager: TestUser;
  beforeAll(async () => {
    manager = await h.createUser({ role: 'admin', agenceId: admin.agenceId, permissions: ['templates.view', 'templates.manage'] });
  });

  it('are held to the photos’ pixel budget: a save or a preview with a 12000 × 12000 image is refused in French and writes nothing', async () => {
    const before = await eventCount();
    for (const [url, payload] of [
      ['/api/templates', { name: 'Lourd', content_html: `<p>Logo</p><img src="${oversized}">`, css: '' }],
      ['/api/templates', { name: 'Lourd', content_html: '<p>Logo</p>', css: `.logo { background: url(data:image/webp;base64,${craftedWebp(20_000, 20_000).toString('base64')}) }` }],
      ['/api/templates/preview', { content_html: `<p>Logo</p><img src="${oversized}">` }],
    ] as const) {
      const response = await h.request(manager, { method: 'POST', url, payload });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error).toMatch(/^Image trop grande : /);
    }
    const preview = await h.request(admin, { method: 'POST', url: '/api/templates/preview', payload: { content_html: `<img src="${oversized}">` } });
    expect(preview.json().error).toBe(refusal);
    expect(await eventCount()).toBe(before);
  });

  it('within the budget are kept', async () => {
    const logo = `data:image/png;base64,${craftedPng(600, 200, { colorType: 2 }).toString('base64')}`;
    const response = await h.request(manager, { method: 'POST', url: '/api/templates', payload: { name: 'Avec logo', content_html: `<p>Logo</p><img src="${logo}">`, css: '' } });
    expect(response.statusCode).toBe(201);
  });
});

describe('a preview the API gave up on', () => {
  it('is stopped in the worker at the same deadline (its render thread terminated), not rendered for nobody', { timeout: 60_000 }, async () => {
    const prefix = `preview-late-${randomUUID().slice(0, 8)}`;
    const stopped: string[] = [];
    const previewRenderer = createThreadRenderer({ onThreadStopped: ({ reason }) => stopped.push(reason) });
    const own = await startWorkers({ env: { ...h.deps.env, REDIS_URL: redisUrl }, pool: h.pool, store: h.store, logger: pino({ level: 'silent' }), queuePrefix: prefix, reactor: false, previewRenderer });
    const previewer = createBullPreviewer({ redisUrl, prefix, timeoutMs: 1_500 });
    const queue = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: redisUrl }, prefix });
    try {
      // ~1 MB of table rows: a 250-page PDF, several seconds of rendering.
      const heavy = `<table>${'<tr><td>Détecteur optique</td><td>Chambre 214</td><td>OK</td><td>Remplacé</td></tr>'.repeat(12_000)}</table>`;
      const error = await previewer.render({ contentHtml: heavy }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as Error).message).toBe(TEMPLATE_PREVIEW_MESSAGES.unavailable);
      await expect.poll(() => stopped, { timeout: 15_000 }).toEqual(['timeout']);
      const [failed] = await queue.getJobs(['failed']);
      expect(failed?.failedReason).toMatch(/^Rendu interrompu : plus de \d+ ms de calcul\.$/);
      expect(await queue.getJobCounts('completed', 'active')).toEqual({ completed: 0, active: 0 });
    } finally {
      await previewer.close();
      await own.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
  });
});

describe('the previewer without workers', () => {
  it('gives up with the French "service unavailable" message and removes the job nobody took', async () => {
    const prefix = `preview-none-${randomUUID().slice(0, 8)}`;
    const previewer = createBullPreviewer({ redisUrl, prefix, timeoutMs: 300 });
    const queue = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: redisUrl }, prefix });
    try {
      const error = await previewer.render({ contentHtml: '<p>x</p>' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as Error).message).toBe(TEMPLATE_PREVIEW_MESSAGES.unavailable);
      await expect.poll(() => queue.getJobCounts('waiting', 'active')).toEqual({ waiting: 0, active: 0 });
    } finally {
      await previewer.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
  });

  it('answers 503 when Redis cannot be reached', async () => {
    const previewer = createBullPreviewer({ redisUrl: 'redis://127.0.0.1:1', timeoutMs: 300 });
    try {
      await expect(previewer.render({ contentHtml: '<p>x</p>' })).rejects.toThrow(TEMPLATE_PREVIEW_MESSAGES.unavailable);
    } finally {
      await previewer.close();
    }
  });
});
