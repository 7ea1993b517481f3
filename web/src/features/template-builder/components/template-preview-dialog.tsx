import { TEMPLATE_A4_PREVIEW, TEMPLATE_PREVIEW_MESSAGES } from '@fsm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { CloseActions } from '../../../components/ui/form-dialog';
import { errorMessage } from '../../../lib/api-client';
import { previewTemplate } from '../api/preview-template';

/** The object URL of a blob for as long as it is shown. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') return undefined;
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/**
 * 'Preview A4' at 1200 × 1123 px (§9): the real PDF, rendered by the report
 * workers from the editor's current content (saved or not) with a sample
 * closed ticket, exactly as a technician's report would be.
 */
export function TemplatePreviewDialog({ name, contentHtml, onClose }: { name: string; contentHtml: string; onClose: () => void }) {
  const preview = useQuery({
    queryKey: ['templates', 'preview', contentHtml],
    queryFn: ({ signal }) => previewTemplate(contentHtml, signal),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const url = useObjectUrl(preview.data?.pdf);
  const fileName = `apercu-${(name || 'modele').replace(/[^\p{L}\p{N}_-]+/gu, '-')}.pdf`;

  return (
    <Dialog open title={`Aperçu A4 — ${name || 'Sans nom'}`} onClose={onClose} className="dialog--preview">
      <p className="muted">Le PDF produit par le service de rapports avec un ticket d'exemple (LYO-2026-00042) : c'est ce que recevra le client.</p>
      {preview.isPending ? (
        <p role="status" className="a4-preview__status">
          Génération de l'aperçu PDF…
        </p>
      ) : null}
      {preview.isError ? (
        <Banner tone="error">
          {errorMessage(preview.error, TEMPLATE_PREVIEW_MESSAGES.failed)}{' '}
          <button type="button" className="btn btn--small" onClick={() => void preview.refetch()}>
            Réessayer
          </button>
        </Banner>
      ) : null}
      {preview.data?.templateFallback ? <Banner tone="warning">{preview.data.templateFallback}</Banner> : null}
      {url ? (
        // Focusable, so keyboard users can scroll the page-sized frame.
        <div className="a4-preview" tabIndex={0} role="region" aria-label="Aperçu A4">
          <iframe title="Aperçu A4 du modèle" src={`${url}#navpanes=0&view=FitH`} width={TEMPLATE_A4_PREVIEW.width} height={TEMPLATE_A4_PREVIEW.height} className="a4-preview__frame" />
        </div>
      ) : null}
      <CloseActions onClose={onClose}>
        {url ? (
          <a className="btn" href={url} download={fileName}>
            Télécharger le PDF
          </a>
        ) : null}
      </CloseActions>
    </Dialog>
  );
}
