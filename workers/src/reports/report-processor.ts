import { createHash } from 'node:crypto';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { reportStreamId, ticketStreamId, type ReportGeneratedData, type ReportGenerationFailedData } from '@fsm/contracts';
import { readStreamOrEmpty } from '@fsm/eventstore';
import { outcomeEventId } from '../event-ids.js';
import { NotThisLogError } from '../own-log.js';
import { ReadModelsNotReadyError, delayUntilReadModels } from '../read-models-delay.js';
import { loadReport, type LoadReportDeps, type ReportJobTarget } from './load-report.js';
import type { RenderedReport } from './pdf-render.js';
import type { RenderInput } from './report-facts.js';
import { RenderStoppedError, type ReportRenderer } from './report-renderer.js';

export const RENDER_REPORT_JOB = 'render-report';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Job payloads carry ids only. */
export function parseRenderReportJob(data: unknown): ReportJobTarget | null {
  if (typeof data !== 'object' || data === null) return null;
  const { reportId, ticketId, interventionId } = data as Record<string, unknown>;
  if (typeof reportId !== 'string' || !GUID.test(reportId) || typeof ticketId !== 'string' || !GUID.test(ticketId)) return null;
  if (interventionId !== null && (typeof interventionId !== 'string' || !GUID.test(interventionId))) return null;
  return { reportId, ticketId, interventionId };
}

export interface ReportProcessorDeps extends LoadReportDeps {
  renderer: ReportRenderer;
  clock: () => Date;
  /** READ_MODELS_PATIENCE_MS unless set (tests shorten it). */
  readModelsPatienceMs?: number;
}

export type RenderOutcome = { status: 'generated'; filename: string; sha256: string } | { status: 'already-generated' };

/**
 * Renders the report of one visit, stores the PDF (content-addressed) and
 * appends ReportGenerated with the PDF's SHA-256. Idempotent: a report whose
 * stream already says "generated" is not rendered again, and the outcome
 * event's id is derived from the report id, so two runs racing each other
 * record one outcome (the first).
 */
export async function renderReportJob(deps: ReportProcessorDeps, target: ReportJobTarget): Promise<RenderOutcome> {
  const stream = reportStreamId(target.reportId);
  const history = await readStreamOrEmpty(deps.store, stream);
  if (history.some((event) => event.type === 'ReportGenerated')) return { status: 'already-generated' };

  const loaded = await loadReport(deps, target);
  const rendered = await renderWithinLimits(deps.renderer, loaded.input);
  const sha256 = createHash('sha256').update(rendered.pdf).digest('hex');
  const blobRef = await deps.blobs.put(rendered.pdf, 'pdf');
  const data: ReportGeneratedData = {
    reportId: target.reportId,
    ticketId: target.ticketId,
    interventionId: target.interventionId,
    filename: loaded.filename,
    blobRef,
    sha256,
    bytes: rendered.pdf.length,
    templateId: rendered.templateFallback === null ? loaded.templateId : null,
    templateName: rendered.templateFallback === null ? loaded.templateName : null,
    unknownVariables: loaded.unknownVariables,
    templateFallback: rendered.templateFallback,
    generatedAt: deps.clock().toISOString(),
  };
  await deps.store.appendToStream(
    stream,
    [{ id: outcomeEventId('report-generated', target.reportId), type: 'ReportGenerated', data, metadata: { userId: null, userName: 'workers', correlationId: target.reportId, causationId: target.reportId } }],
    { expectedRevision: 'any' },
  );
  return { status: 'generated', filename: loaded.filename, sha256 };
}

/**
 * An agency template that overruns the render's time or memory budget would
 * overrun it again on every attempt, holding a render thread each time: the
 * report is laid out at once with the built-in layout, and says why (as for
 * a template that cannot be read). Without a template, an overrun fails the
 * attempt, retried per the queue's policy.
 */
async function renderWithinLimits(renderer: ReportRenderer, input: RenderInput): Promise<RenderedReport> {
  try {
    return await renderer.render(input);
  } catch (error) {
    if (!(error instanceof RenderStoppedError) || error.reason === 'cancelled' || input.templateHtml === null) throw error;
    const rendered = await renderer.render({ ...input, templateHtml: null });
    return { ...rendered, templateFallback: `Modèle de l’agence trop lourd (${error.limit}) : mise en page par défaut utilisée.` };
  }
}

/** Records that a report will not be produced, so the API stops waiting for it. */
export async function recordReportFailure(deps: ReportProcessorDeps, target: ReportJobTarget, error: unknown, jobId: string): Promise<void> {
  const data: ReportGenerationFailedData = {
    reportId: target.reportId,
    ticketId: target.ticketId,
    interventionId: target.interventionId,
    error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
    failedAt: deps.clock().toISOString(),
  };
  await deps.store.appendToStream(
    reportStreamId(target.reportId),
    [{ id: outcomeEventId('report-failed', target.reportId, jobId), type: 'ReportGenerationFailed', data, metadata: { userId: null, userName: 'workers', correlationId: target.reportId, causationId: target.reportId } }],
    { expectedRevision: 'any' },
  );
}

/**
 * Whether the job's visit is an event of this log: the ticket's stream holds
 * the visit event (the report's id), or the report's stream exists. The
 * reactor enqueues after the visit is committed, so a job of this log always
 * finds it.
 */
async function visitInLog(deps: Pick<ReportProcessorDeps, 'store'>, target: ReportJobTarget): Promise<boolean> {
  const [ticket, report] = await Promise.all([
    readStreamOrEmpty(deps.store, ticketStreamId(target.ticketId)),
    readStreamOrEmpty(deps.store, reportStreamId(target.reportId)),
  ]);
  return report.length > 0 || ticket.some((event) => event.id === target.reportId);
}

export function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** The 'reports' queue's processor: one worker per queue, branching on the job name. */
export function reportsProcessor(deps: ReportProcessorDeps) {
  return async (job: Job, token?: string): Promise<RenderOutcome> => {
    switch (job.name) {
      case RENDER_REPORT_JOB: {
        const target = parseRenderReportJob(job.data);
        if (!target) throw new UnrecoverableError(`invalid ${RENDER_REPORT_JOB} payload`);
        try {
          return await renderReportJob(deps, target);
        } catch (error) {
          if (error instanceof ReadModelsNotReadyError && (await delayUntilReadModels(job, token, deps.readModelsPatienceMs))) throw new DelayedError();
          if (error instanceof UnrecoverableError || isLastAttempt(job)) {
            // A visit this log does not hold is another deployment's: left alone, no failure appended here (issue 32).
            if (!(await visitInLog(deps, target))) throw new NotThisLogError(`report ${target.reportId}: visit not in this log (${error instanceof Error ? error.message : String(error)})`);
            await recordReportFailure(deps, target, error, job.id ?? '');
          }
          throw error;
        }
      }
      default:
        throw new UnrecoverableError(`unknown reports job ${job.name}`);
    }
  };
}
