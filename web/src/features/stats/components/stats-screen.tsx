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
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCurrentUser } from '../../../app/guards';
import { AccessDenied } from '../../../components/ui/access-denied';
import { Banner } from '../../../components/ui/banner';
import { SelectField } from '../../../components/ui/select-field';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAgences } from '../../agences/api/get-agences';
import { useMetierList } from '../../metiers/api/get-metiers';
import { useUserAgences } from '../../users/api/get-user-agences';
import { useExportStatsCsv } from '../api/export-stats-csv';
import { useStatsTickets } from '../api/get-stats-tickets';
import type { StatsFilters } from '../api/stats-keys';
import { STATS_API_ERROR, STATS_EXPORT_ERROR, STATS_NO_DATA_MESSAGE } from '../api/stats-messages';
import { weeklySlaTrend } from '../weekly-trend';
import { SlaTrendChart } from './sla-trend-chart';
import { StatsGauge } from './stats-gauge';

function initialFilters(): StatsFilters {
  const window = defaultStatsWindow(new Date());
  return { from: window.from, to: window.to, metier_id: '', agence_id: '' };
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
  const stats = useStatsTickets(applied, allowed);
  const metiers = useMetierList(allowed);
  const agences = useAgenceOptions(allowed && global);
  const exportCsv = useExportStatsCsv();
  const [exportError, setExportError] = useState<string | null>(null);
  const items = stats.data?.items ?? [];
  const trend = useMemo(() => weeklySlaTrend(items, applied.from, applied.to), [items, applied.from, applied.to]);

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

  const onExport = () => {
    setExportError(null);
    exportCsv.mutate(applied, { onError: (error) => setExportError(errorMessage(error, STATS_EXPORT_ERROR)) });
  };

  const summary = stats.data?.summary;
  const technicien = (item: StatsTicketItem) => [item.technicien_prenom, item.technicien_nom].filter(Boolean).join(' ') || '—';

  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">Statistiques</h1>
        <button type="button" className="btn" onClick={onExport} disabled={exportCsv.isPending || !stats.data} aria-busy={exportCsv.isPending || undefined}>
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

      {stats.isPending ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : null}

      {summary ? (
        <div className="stats-gauges">
          <StatsGauge title="Respect du délai d'intervention" pct={summary.sla_pct} objective={SLA_OBJECTIVE_PCT} part={summary.sla_ok} whole={summary.total} unit="tickets dans les délais" />
          <StatsGauge
            title="Devis envoyés sous 5 jours"
            pct={summary.devis_pct}
            objective={DEVIS_OBJECTIVE_PCT}
            part={summary.devis_ok}
            whole={summary.devis_eligible}
            unit="devis dans les délais"
          />
        </div>
      ) : null}

      {stats.data && items.length === 0 ? <Banner tone="info">{STATS_NO_DATA_MESSAGE}</Banner> : null}

      {items.length > 0 ? <SlaTrendChart points={trend} /> : null}

      {stats.isPending || items.length > 0 ? (
        <div className="table-wrap">
          <table className="data-table data-table--clickable data-table--wrap-head">
            <caption className="visually-hidden">Détail des tickets</caption>
            <thead>
              <tr>
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
            <tbody>
              {stats.isPending ? (
                <SkeletonRows columns={10} />
              ) : (
                items.map((item) => (
                  <tr key={item.id} onClick={() => navigate(`/tickets/${encodeURIComponent(item.id)}`)}>
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
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
