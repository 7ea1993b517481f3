import {
  DEVIS_OBJECTIVE_PCT,
  MANAGEMENT_MESSAGES,
  SLA_OBJECTIVE_PCT,
  canSeeGlobalStats,
  canSeeStats,
  defaultStatsWindow,
  hasAnyPermission,
  statsCsvFlag,
  type StatsTicketItem,
} from '@fsm/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCurrentUser } from '../../../app/guards';
import { AccessDenied } from '../../../components/ui/access-denied';
import { Banner } from '../../../components/ui/banner';
import { SelectField } from '../../../components/ui/select-field';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { loadedRows } from '../../../lib/infinite-pages';
import { useDocumentTop } from '../../../lib/use-document-top';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAgences } from '../../agences/api/get-agences';
import { useMetierList } from '../../metiers/api/get-metiers';
import { useUserAgences } from '../../users/api/get-user-agences';
import { STATS_CSV_INLINE_MAX_ROWS, useExportStatsCsv } from '../api/export-stats-csv';
import { useStatsTicketsPages } from '../api/get-stats-tickets';
import { useRequestStatsExport } from '../api/request-stats-export';
import type { StatsFilters } from '../api/stats-keys';
import { STATS_API_ERROR, STATS_EXPORT_ERROR, STATS_NO_DATA_MESSAGE } from '../api/stats-messages';
import { SlaTrendChart } from './sla-trend-chart';
import { StatsExportProgress } from './stats-export-progress';
import { StatsGauge } from './stats-gauge';

function initialFilters(): StatsFilters {
  const window = defaultStatsWindow(new Date());
  return { from: window.from, to: window.to, metier_id: '', agence_id: '' };
}

/**
 * What the intervention-delay rate counts (docs/sla.md §6), written under it:
 * the home page's « Performance » over the same 30 days counts closures
 * against the échéance and gives another figure (issue 32, item 10).
 */
function slaBasis(filters: Pick<StatsFilters, 'from' | 'to'>): string {
  const period = filters.from && filters.to ? `du ${formatDate(filters.from)} au ${formatDate(filters.to)}` : 'de la période';
  return `Tickets demandés ${period} : arrivée du technicien (ou clôture) dans le délai du ticket, jours non ouvrés exclus selon le métier ; un ticket non clos en retard compte comme hors délai. L’accueil compte autre chose : les tickets clos à l’échéance.`;
}

function Flag({ value, label }: { value: boolean | null; label: string }) {
  const text = statsCsvFlag(value);
  const tone = value === null ? 'neutral' : value ? 'success' : 'danger';
  return (
    <span className={`chip chip--${tone}`} aria-label={`${label} : ${text}`}>
      {text}
    </span>
  );
}

/**
 * The Agence filter's options: only for tickets.stats-global, from whichever
 * list the user may read (a 403 would end the session, so nothing is asked
 * that the server would refuse).
 */
function useAgenceOptions(enabled: boolean) {
  const me = useCurrentUser();
  const viaAgences = enabled && hasAnyPermission(me, ['agences.view', 'templates.view', 'templates.manage']);
  const viaUsers = enabled && !viaAgences && hasAnyPermission(me, ['users.view', 'users.edit']);
  const agences = useAgences(viaAgences);
  const userAgences = useUserAgences(viaUsers);
  return (viaAgences ? agences.data : viaUsers ? userAgences.data : undefined) ?? [];
}

/**
 * /stats (management §2): filters Du, Au, Métier and (tickets.stats-global)
 * Agence applied with Appliquer; the intervention-delay and quote gauges
 * against 90 % and 100 %; a weekly trend; the tickets, each opening its
 * detail; 'Exporter CSV'.
 */
export function StatsScreen() {
  useDocumentTitle('Statistiques');
  const me = useCurrentUser();
  const allowed = canSeeStats(me);
  const global = canSeeGlobalStats(me);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<StatsFilters>(initialFilters);
  const [applied, setApplied] = useState<StatsFilters>(draft);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const stats = useStatsTicketsPages(applied, allowed);
  const metiers = useMetierList(allowed);
  const agences = useAgenceOptions(allowed && global);
  const exportCsv = useExportStatsCsv();
  const requestExport = useRequestStatsExport();
  const [exportError, setExportError] = useState<string | null>(null);
  /** The export the workers are making for the last large 'Exporter CSV' (none: the last one was immediate). */
  const [backgroundExportId, setBackgroundExportId] = useState<string | null>(null);
  const items = useMemo(() => loadedRows(stats.data, (page) => page.items), [stats.data]);
  const firstPage = stats.data?.pages[0];

  if (!allowed) return <AccessDenied title="Statistiques" />;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setRangeError(MANAGEMENT_MESSAGES.statsRangeInverted);
      return;
    }
    setRangeError(null);
    setApplied({ ...draft, agence_id: global ? draft.agence_id : '' });
  };

  const summary = firstPage?.summary;
  const total = firstPage?.total ?? 0;

  // Up to STATS_CSV_INLINE_MAX_ROWS tickets the file comes at once; above, the
  // workers write it and the screen follows their progress (docs/exports.md).
  const onExport = () => {
    setExportError(null);
    setBackgroundExportId(null);
    const onError = (error: unknown) => setExportError(errorMessage(error, STATS_EXPORT_ERROR));
    if (total <= STATS_CSV_INLINE_MAX_ROWS) exportCsv.mutate(applied, { onError });
    else requestExport.mutate(applied, { onSuccess: (status) => setBackgroundExportId(status.id), onError });
  };
  const exporting = exportCsv.isPending || requestExport.isPending;
  // While new filters load, the total on screen is the previous filters': it would pick the wrong way.
  const canExport = !!stats.data && !stats.isPlaceholderData;

  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">Statistiques</h1>
        <button type="button" className="btn" onClick={onExport} disabled={exporting || !canExport} aria-busy={exporting || undefined}>
          Exporter CSV
        </button>
      </div>

      <form className="card stats-filters" onSubmit={apply} aria-label="Filtres">
        <TextField label="Du" type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} error={rangeError} />
        <TextField label="Au" type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
        <SelectField label="Métier" value={draft.metier_id} onChange={(e) => setDraft((d) => ({ ...d, metier_id: e.target.value }))}>
          <option value="">Tous</option>
          {(metiers.data ?? []).map((metier) => (
            <option key={metier.id} value={metier.id}>
              {metier.nom}
            </option>
          ))}
        </SelectField>
        {global ? (
          <SelectField label="Agence" value={draft.agence_id} onChange={(e) => setDraft((d) => ({ ...d, agence_id: e.target.value }))}>
            <option value="">Toutes</option>
            {agences.map((agence) => (
              <option key={agence.id} value={agence.id}>
                {agence.nom}
              </option>
            ))}
          </SelectField>
        ) : null}
        <button type="submit" className="btn btn--primary">
          Appliquer
        </button>
      </form>

      {stats.isError ? <Banner tone="error">{errorMessage(stats.error, STATS_API_ERROR)}</Banner> : null}
      {exportError ? <Banner tone="error">{exportError}</Banner> : null}
      {backgroundExportId ? <StatsExportProgress exportId={backgroundExportId} /> : null}

      {stats.isPending ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : null}

      {summary ? (
        <div className="stats-gauges">
          <StatsGauge
            title="Respect du délai d'intervention"
            pct={summary.sla_pct}
            objective={SLA_OBJECTIVE_PCT}
            part={summary.sla_ok}
            whole={summary.total}
            unit="tickets dans les délais"
            basis={slaBasis(applied)}
          />
          <StatsGauge
            title="Devis envoyés sous 5 jours"
            pct={summary.devis_pct}
            objective={DEVIS_OBJECTIVE_PCT}
            part={summary.devis_ok}
            whole={summary.devis_eligible}
            unit="devis dans les délais"
            basis="Devis demandés sur ces tickets : enregistrés au plus tard 5 jours après la visite qui les a demandés."
          />
        </div>
      ) : null}

      {stats.data && items.length === 0 ? <Banner tone="info">{STATS_NO_DATA_MESSAGE}</Banner> : null}

      {items.length > 0 && firstPage?.weekly ? <SlaTrendChart points={firstPage.weekly} /> : null}

      {items.length > 0 ? (
        <p className="muted" role="status">
          {formatNumber(total)} ticket{total > 1 ? 's' : ''}
        </p>
      ) : null}

      {stats.isPending || items.length > 0 ? (
        <div className="table-wrap">
          <table className="data-table data-table--clickable data-table--wrap-head" aria-rowcount={stats.isPending ? undefined : total + 1}>
            <caption className="visually-hidden">Détail des tickets</caption>
            <thead>
              <tr aria-rowindex={stats.isPending ? undefined : 1}>
                <th scope="col">N° Chrono</th>
                <th scope="col">Client</th>
                <th scope="col">Site</th>
                <th scope="col">Installation</th>
                <th scope="col">Technicien</th>
                <th scope="col">Créé le</th>
                <th scope="col">Clôturé le</th>
                <th scope="col">Délai intervention</th>
                <th scope="col">Délai devis</th>
                <th scope="col">Interventions</th>
              </tr>
            </thead>
            {stats.isPending ? (
              <tbody>
                <SkeletonRows columns={10} />
              </tbody>
            ) : (
              <StatsRows
                items={items}
                hasNextPage={stats.hasNextPage && !stats.isError}
                isFetchingNextPage={stats.isFetchingNextPage}
                fetchNextPage={stats.fetchNextPage}
                onOpen={(item) => navigate(`/tickets/${encodeURIComponent(item.id)}`)}
              />
            )}
          </table>
        </div>
      ) : null}
      {stats.isFetchingNextPage ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : null}
    </section>
  );
}

const COLUMNS = 10;
/** A row's usual height; rows are measured once drawn. */
const ESTIMATED_ROW_PX = 49;
const OVERSCAN_ROWS = 10;
/** The next page is asked for this many rows before the end of what is loaded. */
const PREFETCH_ROWS = 30;

function technicien(item: StatsTicketItem): string {
  return [item.technicien_prenom, item.technicien_nom].filter(Boolean).join(' ') || '—';
}

/**
 * The table's rows, only those on screen (issue #19: a year made an 8,273-row
 * table): the page scrolls as before, two spacer rows stand for the rows
 * above and below, and `aria-rowindex` tells screen readers where each drawn
 * row sits in the whole table. Nearing the end of the loaded rows asks for
 * the next page.
 */
function StatsRows({
  items,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  onOpen,
}: {
  items: readonly StatsTicketItem[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Never restarts a page already on its way (react-query's default would, on every scroll). */
  fetchNextPage: (options: { cancelRefetch: boolean }) => unknown;
  onOpen: (item: StatsTicketItem) => void;
}) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const top = useDocumentTop(bodyRef);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin: top,
    getItemKey: (index) => items[index]?.id ?? index,
  });
  const drawn = virtualizer.getVirtualItems();
  const before = (drawn[0]?.start ?? top) - top;
  const after = virtualizer.getTotalSize() - ((drawn.at(-1)?.end ?? top) - top);

  const lastDrawn = drawn.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastDrawn >= items.length - 1 - PREFETCH_ROWS) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, lastDrawn, items.length, fetchNextPage]);

  return (
    <tbody ref={bodyRef}>
      {before > 0 ? (
        <tr aria-hidden="true" className="virtual-spacer">
          <td colSpan={COLUMNS} style={{ height: before, padding: 0, border: 0 }} />
        </tr>
      ) : null}
      {drawn.map((row) => {
        const item = items[row.index];
        if (!item) return null;
        return (
          <tr key={item.id} data-index={row.index} ref={virtualizer.measureElement} aria-rowindex={row.index + 2} onClick={() => onOpen(item)}>
            <th scope="row" className="nowrap">
              <Link to={`/tickets/${encodeURIComponent(item.id)}`} onClick={(event) => event.stopPropagation()}>
                {item.num_chrono}
              </Link>
            </th>
            <td>{item.client_nom ?? '—'}</td>
            <td>{item.site_nom ?? '—'}</td>
            <td>{item.installation_nom ?? '—'}</td>
            <td>{technicien(item)}</td>
            <td className="nowrap">{formatDateTime(item.created_at)}</td>
            <td className="nowrap">{formatDateTime(item.clos_at)}</td>
            <td>
              <Flag value={item.sla_ok} label="Délai d'intervention respecté" />
            </td>
            <td>
              <Flag value={item.devis_ok} label="Délai de devis respecté" />
            </td>
            <td>{item.interventions_count}</td>
          </tr>
        );
      })}
      {after > 0 ? (
        <tr aria-hidden="true" className="virtual-spacer">
          <td colSpan={COLUMNS} style={{ height: after, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </tbody>
  );
}
