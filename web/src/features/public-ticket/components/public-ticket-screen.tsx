import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { useDocumentTitle } from '../../../lib/use-document-title';

export const INVALID_LINK_MESSAGE = 'Lien non valide. Merci de scanner un QR code officiel.';

/**
 * Public breakdown request 'Demande de dépannage', reached from a QR code
 * (`/ticket?key=…`). The form itself comes later; the missing-key case is final.
 */
export function PublicTicketScreen() {
  useDocumentTitle('Demande de dépannage');
  const [params] = useSearchParams();
  const key = params.get('key')?.trim();

  return (
    <main className="auth-page">
      <section className="card auth-card" aria-labelledby="public-ticket-title">
        <h1 id="public-ticket-title">Demande de dépannage</h1>
        {key ? (
          <div className="construction">
            <span className="construction__badge">Écran en construction</span>
            <p className="muted">Le formulaire de demande sera bientôt disponible.</p>
          </div>
        ) : (
          <Banner tone="error">{INVALID_LINK_MESSAGE}</Banner>
        )}
      </section>
    </main>
  );
}
