import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportStreamId, ticketStreamId } from '@fsm/contracts';
import { startWorkers, type ReportRenderer, type RunningWorkers } from '@fsm/workers';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { obliterateQueues, reportTickets } from './support/report-tickets.js';

/*
 * Issue 32, item 14: a report whose render failed for good answers at once
 * with the reason (not a 503 after 30 s), and asking again gives it a new job.
 * The workers here render with a renderer the test breaks and repairs.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-api-report-failure-${randomUUID().slice(0, 8)}`;
let h: ApiHarness;
let workers: RunningWorkers;
let tech: TestUser;
let agenceId: string;
let broken = true;
let renders = 0;

const renderer: ReportRenderer = {
  async render() {
    renders++;
    if (broken) throw new UnrecoverableError('Rendu interrompu : plus de 30 s de calcul.');
    return { pdf: Buffer.from('%PDF-1.4\n% test\n%%EOF\n'), templateFallback: null };
  },
  close: async () => undefined,
};

beforeAll(async () => {
  h = await createApiHarness('api_report_failure');
  workers = await startWorkers({
    env: { ...h.deps.env, REDIS_URL: redisUrl },
    pool: h.pool,
    store: h.store,
    logger: pino({ level: 'silent' }),
    queuePrefix: prefix,
    backoffMs: 10,
    renderer,
    previewRenderer: renderer,
  });
  agenceId = await h.createAgence('Agence Lyon Sécurité Incendie');
  tech = await h.createUser({ role: 'technicien', agenceId });
});

afterAll(async () => {
  await workers?.close();
  await obliterateQueues(redisUrl, prefix);
  await h?.close();
});

const { closedTicket } = reportTickets(() => ({ h, agenceId, tech }));

describe('a report whose generation failed (issue 32)', () => {
  it('answers at once with the reason, shows it on the ticket, and is generated when asked again', async () => {
    const ticketId = await closedTicket('LYO-2026-00301');
    const closed = (await h.store.readStream(ticketStreamId(ticketId))).find((event) => event.type === 'TicketClosed')!;
    const ask = () => h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf?isReintervention=false`, payload: {} });

    const started = Date.now();
    const failed = await ask();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({
      error: 'La génération du rapport a échoué : Rendu interrompu : plus de 30 s de calcul. Vous pouvez la relancer.',
      code: 'REPORT_FAILED',
      reason: 'Rendu interrompu : plus de 30 s de calcul',
    });

    // The ticket's reports say it failed, and why (once the read model has the failure: it may lag the answer).
    const latestReport = async () => (await h.request(tech, { method: 'GET', url: `/api/tickets/${ticketId}/reports` })).json().reports[0];
    for (let waited = 0; (await latestReport())?.status !== 'failed' && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await latestReport()).toMatchObject({ status: 'failed', failure: 'La génération du rapport a échoué : Rendu interrompu : plus de 30 s de calcul. Vous pouvez la relancer.' });

    // Asked again once the cause is gone: a new job (not the failed one the queue keeps), and the report.
    broken = false;
    const rendersBefore = renders;
    const again = await ask();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, filename: expect.stringMatching(/^rapport-LYO-2026-00301-[0-9a-f]{8}\.pdf$/) });
    expect(renders).toBeGreaterThan(rendersBefore);
    const events = await h.store.readStream(reportStreamId(closed.id));
    expect(events.filter((event) => event.type === 'ReportGenerated')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('ReportGenerated');
  });
});
