import { UnrecoverableError, type Job } from 'bullmq';
import { TEMPLATE_PREVIEW_JOB, templatePreviewJobSchema, type TemplatePreviewResult } from '@fsm/contracts';
import { fillReportTemplate, templateValues } from './load-report.js';
import type { ReportRenderer } from './report-renderer.js';
import { sampleReportFacts } from './sample-report.js';

/** The sample visit's technician id, for `{{ticket.id_technicien}}`. */
const SAMPLE_TECHNICIEN_ID = '5b1e8f3a-2c4d-4e6f-8a9b-0c1d2e3f4a5b';

/**
 * 'Preview A4' (management.md §4): a template rendered exactly as a real
 * report is (same variable filling, same renderer, same thread), with the
 * sample closed ticket's facts. Nothing is stored.
 */
export async function renderTemplatePreview(renderer: ReportRenderer, contentHtml: string): Promise<TemplatePreviewResult> {
  const facts = sampleReportFacts();
  const templateHtml = fillReportTemplate(contentHtml, templateValues(facts, SAMPLE_TECHNICIEN_ID));
  const rendered = await renderer.render({ facts, templateHtml });
  return { pdfBase64: Buffer.from(rendered.pdf).toString('base64'), templateFallback: rendered.templateFallback };
}

/** The 'previews' queue's processor: the API waits for the result (QueueEvents), so it never retries. */
export function previewsProcessor(deps: { renderer: ReportRenderer }) {
  return async (job: Job): Promise<TemplatePreviewResult> => {
    if (job.name !== TEMPLATE_PREVIEW_JOB) throw new UnrecoverableError(`unknown previews job ${job.name}`);
    const parsed = templatePreviewJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid ${TEMPLATE_PREVIEW_JOB} payload`);
    return renderTemplatePreview(deps.renderer, parsed.data.contentHtml);
  };
}
