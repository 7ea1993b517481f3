import { TEMPLATE_A4_PREVIEW } from '@fsm/contracts';
import { Dialog } from '../../../components/ui/dialog';
import { previewDocument } from '../sample-values';

/**
 * 'Preview A4' at 1200 × 1123 px (§9). The server has no route yet that
 * renders a template to PDF for a sample ticket, so this shows the HTML with
 * the variables filled from a sample, in a sandboxed frame (no script runs).
 */
export function TemplatePreviewDialog({ name, contentHtml, css, onClose }: { name: string; contentHtml: string; css: string; onClose: () => void }) {
  return (
    <Dialog open title={`Aperçu A4 — ${name || 'Sans nom'}`} onClose={onClose} className="dialog--preview">
      <p className="muted">Aperçu HTML avec les données d'un ticket d'exemple ; le rapport PDF réel est produit à la clôture des tickets.</p>
      <div className="a4-preview">
        <iframe
          title="Aperçu A4 du modèle"
          sandbox=""
          width={TEMPLATE_A4_PREVIEW.width}
          height={TEMPLATE_A4_PREVIEW.height}
          srcDoc={previewDocument(contentHtml, css)}
          className="a4-preview__frame"
        />
      </div>
      <div className="dialog__actions">
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Fermer
        </button>
      </div>
    </Dialog>
  );
}
