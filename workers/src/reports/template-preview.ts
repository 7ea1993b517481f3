import { UnrecoverableError, type Job } from 'bullmq';
import { TEMPLATE_PREVIEW_JOB, TEMPLATE_PREVIEW_TIMEOUT_MS, templatePreviewJobSchema, type TemplatePreviewResult } from '@fsm/contracts';
import { fillReportTemplate, templateValues } from './load-report.js';
import type { RenderOptions, ReportRenderer } from './report-renderer.js';
import { sampleReportFacts } from './sample-report.js';

/** The sample visit's technician id, for `{{ticket.id_technicien}}`. */
const SAMPLE_TECHNICIEN_ID = '5b1e8f3a-2c4d-4e6f-8a9b-0c1d2e3f4a5b';

/**
 * 'Preview A4' (management.md §4): a template rendered exactly as a real
 * report is (same variable filling, same layout code), with the sample
 * closed ticket's facts. Nothing is stored.
 */
async function renderTemplatePreview(renderer: ReportRenderer, contentHtml: string, options: RenderOptions = {}): Promise<TemplatePreviewResult> {
  const facts = sampleReportFacts();
  const templateHtml = fillReportTemplate(contentHtml, templateValues(facts, SAMPLE_TECHNICIEN_ID));
  const rendered = await renderer.render({ facts, templateHtml }, options);
  return { pdfBase64: Buffer.from(rendered.pdf).toString('base64'), templateFallback: rendered.templateFallback };
}

export interface PreviewsProcessorDeps {
  /** The previews' own renderer: a heavy preview holds its threads, never the reports'. */
  renderer: ReportRenderer;
  clock: () => Date;
}

/**
 * The 'previews' queue's processor: the API waits for the result (QueueEvents)
 * until the job's deadline, so it never retries, and the render stops at that
 * deadline (its thread terminated) rather than finish a PDF nobody will read.
 * A job taken after its deadline is not rendered at all.
 */
export function previewsProcessor(deps: PreviewsProcessorDeps) {
  return async (job: Job, _token?: string, signal?: AbortSignal): Promise<TemplatePreviewResult> => {
    if (job.name !== TEMPLATE_PREVIEW_JOB) throw new UnrecoverableError(`unknown previews job ${job.name}`);
    const parsed = templatePreviewJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid ${TEMPLATE_PREVIEW_JOB} payload`);
    const deadlineAt = parsed.data.deadlineAt ?? job.timestamp + TEMPLATE_PREVIEW_TIMEOUT_MS;
    const remainingMs = deadlineAt - deps.clock().getTime();
    if (remainingMs <= 0) throw new UnrecoverableError('Aperçu abandonné : plus personne ne l’attend.');
    return renderTemplatePreview(deps.renderer, parsed.data.contentHtml, { timeoutMs: remainingMs, ...(signal ? { signal } : {}) });
  };
}
