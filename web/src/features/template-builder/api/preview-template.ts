import { apiRequest } from '../../../lib/api-client';

export interface TemplatePreview {
  pdf: Blob;
  /** Why the built-in layout was used instead of the template, when it was. */
  templateFallback: string | null;
}

/**
 * POST /api/templates/preview: the editor's content (saved or not) rendered
 * by the report workers with a sample closed ticket; the answer is the PDF.
 */
export async function previewTemplate(contentHtml: string, signal?: AbortSignal): Promise<TemplatePreview> {
  const response = await apiRequest<Response>('/api/templates/preview', { method: 'POST', json: { content_html: contentHtml }, raw: true, ...(signal ? { signal } : {}) });
  const fallback = response.headers.get('x-template-fallback');
  return { pdf: await response.blob(), templateFallback: fallback ? decodeURIComponent(fallback) : null };
}
