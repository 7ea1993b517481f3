import { z } from 'zod';
import { defineEvent, isoDateTime, withoutHiddenCharacters } from './fields.js';
import { templateIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

export const TEMPLATE_NAME_MAX = 200;
/** Generous for inline images, small enough to keep events and PDFs sane. */
export const TEMPLATE_CONTENT_MAX = 1_000_000;
export const TEMPLATE_CSS_MAX = 100_000;
export const TEMPLATE_COPY_SUFFIX = ' (copie)';
export const TEMPLATE_EDITOR_HEIGHT = 500;
export const TEMPLATE_A4_PREVIEW = { width: 1200, height: 1123 } as const;

/** 'Dupliquer' makes an unsaved copy named after the original (§4). */
export function templateCopyName(name: string): string {
  return `${name}${TEMPLATE_COPY_SUFFIX}`;
}

/**
 * POST /api/templates and PUT /api/templates/{id}. Name and content must be
 * non-empty once trimmed (§5); the content is kept as written (the handler
 * sanitises the HTML before the command). Other template fields sent along are
 * dropped.
 */
export const templateBodySchema = z.object({
  name: z
    .string({ error: M.templateFieldsRequired })
    .trim()
    .min(1, M.templateFieldsRequired)
    .max(TEMPLATE_NAME_MAX, M.tooLong(TEMPLATE_NAME_MAX))
    .refine(...withoutHiddenCharacters),
  content_html: z
    .string({ error: M.templateFieldsRequired })
    .refine((html) => html.trim().length > 0, M.templateFieldsRequired)
    .refine((html) => html.length <= TEMPLATE_CONTENT_MAX, M.templateTooLarge),
  css: z
    .string({ error: M.textExpected })
    .max(TEMPLATE_CSS_MAX, M.templateTooLarge)
    .nullish()
    .transform((css) => css ?? ''),
});
export type TemplateBody = z.output<typeof templateBodySchema>;
export type TemplateBodyInput = z.input<typeof templateBodySchema>;

export const templateSchema = z.object({ id: templateIdSchema, name: z.string(), content_html: z.string(), css: z.string(), version: entityVersionSchema.optional() });
export type Template = z.infer<typeof templateSchema>;
export const templatesResponseSchema = z.array(templateSchema);

const templateFacts = { name: z.string().min(1), content_html: z.string().min(1), css: z.string() };

export const templateCreatedEventSchema = defineEvent('TemplateCreated', { templateId: templateIdSchema, ...templateFacts, createdAt: isoDateTime });
export const templateUpdatedEventSchema = defineEvent('TemplateUpdated', { templateId: templateIdSchema, ...templateFacts, updatedAt: isoDateTime });
export const templateDeletedEventSchema = defineEvent('TemplateDeleted', { templateId: templateIdSchema, deletedAt: isoDateTime });

export const templateEventSchema = z.discriminatedUnion('type', [templateCreatedEventSchema, templateUpdatedEventSchema, templateDeletedEventSchema]);
export type TemplateEvent = z.infer<typeof templateEventSchema>;
