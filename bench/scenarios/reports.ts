import { join } from 'node:path';
import { createBlobStore, createPostgresEventStore } from '@fsm/eventstore';
import { createThreadRenderer, loadReport, renderReportJob } from '@fsm/workers';
import { benchDataDir } from '../seed.js';
import { padSignaturePng } from '../lib/pad-signature.js';
import { distribution, type Distribution } from '../lib/stats.js';
import type { BenchDatabase } from './context.js';

export interface ReportsResult {
  jobs: number;
  /** Whole jobs (read the report stream, load facts, render, hash, store, append ReportGenerated) per second, one worker. */
  jobsPerSecond: number;
  job: Distribution;
  /** Rendering alone in the render thread (the same facts again and again). */
  rendersPerSecond: number;
  render: Distribution;
  pdfBytes: number;
  /** Rendering alone with two signatures as the pad sends them (RGBA, 1074 × 480). */
  padRendersPerSecond?: number;
  padRender?: Distribution;
  padPdfBytes?: number;
}

/**
 * Reports of seeded closures that have a photo and two signatures, with the
 * built-in layout (agencies have no template): one render thread, jobs one
 * after the other, as one worker slot does.
 */
export async function reportsScenario(db: BenchDatabase, count: number): Promise<ReportsResult> {
  const { rows } = await db.pool.query<{ report_id: string; ticket_id: string }>(
    `SELECT e.event_id AS report_id, t.id AS ticket_id
       FROM rm.tickets t JOIN es.events e ON e.stream_id = 'ticket-' || t.id AND e.type = 'TicketClosed'
      WHERE t.statut = 'clos' AND t.photo_ref IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM es.streams s WHERE s.stream_id = 'report-' || e.event_id)
      LIMIT $1`,
    [count + 3],
  );
  const store = createPostgresEventStore({ pool: db.pool, notify: false });
  const blobs = createBlobStore(join(benchDataDir(db.database), 'files'));
  const renderer = createThreadRenderer();
  try {
    const deps = { pool: db.pool, store, blobs, renderer, clock: () => new Date() };
    // Warm-up: the thread starts and loads pdfmake.
    const warm = rows.slice(0, 3);
    for (const row of warm) await renderReportJob(deps, { reportId: row.report_id, ticketId: row.ticket_id, interventionId: null });
    const jobs = rows.slice(3);
    const times: number[] = [];
    const started = performance.now();
    for (const row of jobs) {
      const t = performance.now();
      await renderReportJob(deps, { reportId: row.report_id, ticketId: row.ticket_id, interventionId: null });
      times.push(performance.now() - t);
    }
    const jobSeconds = (performance.now() - started) / 1000;
    const sample = rows[0]!;
    const loaded = await loadReport(deps, { reportId: sample.report_id, ticketId: sample.ticket_id, interventionId: null });
    const renderTimes: number[] = [];
    let bytes = 0;
    const renderStarted = performance.now();
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      bytes = (await renderer.render(loaded.input)).pdf.length;
      renderTimes.push(performance.now() - t);
    }
    const renderSeconds = (performance.now() - renderStarted) / 1000;

    const pad = structuredClone(loaded.input);
    pad.facts.signatures.client.image = new Uint8Array(padSignaturePng(1));
    pad.facts.signatures.technicien.image = new Uint8Array(padSignaturePng(2));
    await renderer.render(pad);
    const padTimes: number[] = [];
    let padBytes = 0;
    const padStarted = performance.now();
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      padBytes = (await renderer.render(pad)).pdf.length;
      padTimes.push(performance.now() - t);
    }
    const padSeconds = (performance.now() - padStarted) / 1000;
    return {
      padRendersPerSecond: count / padSeconds,
      padRender: distribution(padTimes),
      padPdfBytes: padBytes,
      jobs: jobs.length,
      jobsPerSecond: jobs.length / jobSeconds,
      job: distribution(times),
      rendersPerSecond: count / renderSeconds,
      render: distribution(renderTimes),
      pdfBytes: bytes,
    };
  } finally {
    await renderer.close();
    await store.close();
  }
}
