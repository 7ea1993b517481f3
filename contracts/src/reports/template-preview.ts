import { z } from 'zod';
import { TEMPLATE_CONTENT_MAX } from '../management/template.js';
import { MANAGEMENT_MESSAGES as M } from '../management/messages.js';

/*
 * 'Preview A4' of the template builder (management.md §4): the API hands the
 * editor's current content to the workers, which render it exactly as they
 * render a real report, with a made-up closed ticket, and answer the PDF.
 * Nothing is stored and no event is written: a preview is not a fact.
 */

/** The BullMQ queue and job name shared by the API (producer) and the workers (consumer). */
export const TEMPLATE_PREVIEW_QUEUE = 'previews';
export const TEMPLATE_PREVIEW_JOB = 'render-template-preview';
/** How long the API waits for a worker before answering 503. */
export const TEMPLATE_PREVIEW_TIMEOUT_MS = 20_000;

export const TEMPLATE_PREVIEW_MESSAGES = {
  unavailable: 'L’aperçu n’a pas pu être produit : le service de rendu des rapports ne répond pas. Réessayez dans quelques instants.',
  failed: 'L’aperçu n’a pas pu être produit.',
} as const;

/** POST /api/templates/preview: the content as it is in the editor, saved or not. */
export const templatePreviewBodySchema = z.object({
  content_html: z
    .string({ error: M.templateFieldsRequired })
    .refine((html) => html.trim().length > 0, M.templateFieldsRequired)
    .refine((html) => html.length <= TEMPLATE_CONTENT_MAX, M.templateTooLarge),
});
export type TemplatePreviewBody = z.output<typeof templatePreviewBodySchema>;

/**
 * The job's payload: the content already sanitised by the API, as a save
 * would store it, and when the API stops waiting (epoch ms): the workers stop
 * rendering then too. Without it (an older API), the job's creation time plus
 * TEMPLATE_PREVIEW_TIMEOUT_MS.
 */
export const templatePreviewJobSchema = z.object({ contentHtml: z.string().max(TEMPLATE_CONTENT_MAX), deadlineAt: z.number().int().positive().optional() });
export type TemplatePreviewJob = z.infer<typeof templatePreviewJobSchema>;

/** The job's result: the PDF in base64 (a return value travels through Redis as JSON). */
export const templatePreviewResultSchema = z.object({
  pdfBase64: z.string(),
  /** Set when the template could not be laid out and the built-in layout was used instead. */
  templateFallback: z.string().nullable(),
});
export type TemplatePreviewResult = z.infer<typeof templatePreviewResultSchema>;
