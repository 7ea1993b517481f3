import { ACCESS_REFUSAL_MESSAGES } from '@fsm/contracts';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Banner } from './banner';

/**
 * A screen the user may not open: its title and 'Accès refusé.' (management §2
 * for /stats; the same for every permission-gated screen, so a user who follows
 * an old link learns why instead of landing on the home screen unexplained).
 */
export function AccessDenied({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
      </div>
      <Banner tone="error">{ACCESS_REFUSAL_MESSAGES.default}</Banner>
    </section>
  );
}
