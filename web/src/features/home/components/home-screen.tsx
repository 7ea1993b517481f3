import { TICKET_LABELS } from '@fsm/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useTicketSummary, type TicketSummary } from '../api/get-ticket-summary';

type Tone = 'urgent' | 'ouvert' | 'en_cours' | 'intervention' | 'clos' | 'quote';

function Tile({ to, count, label, tone, hint }: { to: string; count: number | null; label: string; tone: Tone; hint?: string }) {
  return (
    <li>
      <Link to={to} className={`tile tile--${tone}`}>
        <span className="tile__count">{count === null ? '—' : formatNumber(count)}</span>
        <span className="tile__label">{label}</span>
        {hint ? <span className="tile__hint">{hint}</span> : null}
      </Link>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `home-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="home-section" aria-labelledby={id}>
      <h2 id={id} className="home-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function PerformanceGauge({ performance }: { performance: TicketSummary['stats']['performance'] }) {
  const pct = performance?.pct ?? null;
  const angle = pct === null ? 0 : Math.max(0, Math.min(100, pct)) * 3.6;
  return (
    <div className="gauge" aria-hidden="true" style={{ ['--gauge-angle' as string]: `${angle}deg` }}>
      <span className="gauge__value">{pct === null ? '—' : `${formatNumber(pct)} %`}</span>
    </div>
  );
}

/**
 * What the home performance counts (spec §2, docs/sla.md §7), written under it
 * because the Statistiques screen's intervention-delay rate, over the same 30
 * days, counts something else and gives another figure (issue 32, item 10).
 */
function performanceBasis(days: number): string {
  return `Tickets clos ces ${days} derniers jours ayant une échéance : part des clôtures au plus tard à l’échéance. Les Statistiques jugent autre chose : l’arrivée du technicien sur les tickets demandés.`;
}

/** Home 'Résumé des tickets' (spec §2): tiles that open the matching list, and the last 30 days. */
export function HomeScreen() {
  useDocumentTitle(TICKET_LABELS.homeTitle);
  const query = useTicketSummary();
  const summary = query.data;
  const counts = summary?.counts;
  const count = (key: keyof NonNullable<typeof counts>) => (counts ? counts[key] : null);
  const perf = summary?.stats.performance ?? null;

  return (
    <section className="stack home" aria-labelledby="screen-title" aria-busy={query.isPending || undefined}>
      <div className="page-header">
        <h1 id="screen-title">{TICKET_LABELS.homeTitle}</h1>
        <Link to="/tickets" className="btn">
          Tous les tickets
        </Link>
      </div>
      {query.isPending ? (
        <p className="muted" role="status">
          {TICKET_LABELS.loading}
        </p>
      ) : null}
      {query.isError ? <Banner tone="error">{errorMessage(query.error, 'Erreur serveur')}</Banner> : null}

      <div className="home-grid">
        <Section title="Tickets clos">
          <ul className="tiles">
            <Tile to="/tickets?statut=clos" count={count('clos')} label="Tickets clos" hint="30 derniers jours" tone="clos" />
          </ul>
        </Section>

        <Section title="Tickets actifs">
          <ul className="tiles">
            <Tile to="/tickets?urgent=1" count={count('urgent')} label="Urgents" tone="urgent" />
            <Tile to="/tickets?statut=ouvert" count={count('ouvert')} label="Ouverts" tone="ouvert" />
            <Tile to="/tickets?statut=en_cours" count={count('en_cours')} label="En cours" tone="en_cours" />
            <Tile to="/tickets?statut=intervention" count={count('intervention')} label="Interventions" tone="intervention" />
          </ul>
        </Section>

        <Section title="Devis en attente">
          <ul className="tiles">
            <Tile to="/tickets?devis_attente=1" count={count('devis_attente')} label="Tickets actifs" tone="quote" />
            <Tile
              to="/tickets?statut=clos&devis_attente=1"
              count={count('clos_devis_attente')}
              label="Tickets clos"
              hint={TICKET_LABELS.quoteNotValidated}
              tone="quote"
            />
          </ul>
        </Section>

        <Section title="Statistiques">
          <p className="muted home-section__note">{summary?.stats.windowDays ?? 30} derniers jours</p>
          <dl className="stats">
            <div className="stats__item">
              <dt>Tickets créés</dt>
              <dd>{summary?.stats.created === null || !summary ? '—' : formatNumber(summary.stats.created)}</dd>
            </div>
            <div className="stats__item">
              <dt>Tickets clos</dt>
              <dd>{summary?.stats.closed === null || !summary ? '—' : formatNumber(summary.stats.closed)}</dd>
            </div>
            <div className="stats__item">
              <dt>Temps moyen de clôture</dt>
              <dd>{summary?.stats.meanClosingLabel ?? '—'}</dd>
            </div>
            <div className="stats__item stats__item--gauge">
              <dt>Performance</dt>
              <dd>
                <PerformanceGauge performance={perf} />
                <span className="stats__detail">
                  {perf && perf.total > 0
                    ? `${formatNumber(perf.pct)} % · ${perf.count} sur ${perf.total} clos dans les délais`
                    : 'Aucun ticket clos avec échéance'}
                </span>
                {/* Issue 32: the figure says what it counts; Statistiques' « Respect du délai d'intervention » judges another thing (docs/sla.md §7). */}
                <span className="stats__basis">{performanceBasis(summary?.stats.windowDays ?? 30)}</span>
              </dd>
            </div>
          </dl>
        </Section>
      </div>
    </section>
  );
}
