import { TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS, TICKET_LABELS } from '@fsm/contracts';
import { useId, useMemo, useState } from 'react';
import { Autocomplete } from '../../../components/ui/autocomplete';
import { NamedOptions, SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { formatDate } from '../../../lib/format';
import { useClientSites } from '../../clients/api/get-client-sites';
import { useClients } from '../../../lib/lookups/get-clients';
import { useUtilisateurs } from '../../../lib/lookups/get-utilisateurs';
import { personName, siteName } from '../../../lib/lookups/lookup-types';
import { useMetierList } from '../../metiers/api/get-metiers';
import type { ClosedTicketsFilters } from '../api/ticket-keys';

export interface ClosedFiltersPanelProps {
  filters: ClosedTicketsFilters;
  onChange: (next: ClosedTicketsFilters) => void;
  onReset: () => void;
  /** Open at first, e.g. when the page was reached with a filter already set. */
  defaultOpen?: boolean;
}

/**
 * The closed view's collapsible 'Filtres' panel (spec §2): request dates,
 * client search, site, installation, technician, métier, reset, and the
 * pending-quote checkbox. A parent's change empties its children. Look-ups
 * that fail to load leave their list empty (spec §8).
 */
export function ClosedFiltersPanel({ filters, onChange, onReset, defaultOpen = false }: ClosedFiltersPanelProps) {
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  const clients = useClients(open).data;
  const sites = useClientSites(open && filters.client_id ? filters.client_id : null).data ?? [];
  const utilisateurs = useUtilisateurs(open).data ?? [];
  const metiers = useMetierList(open).data ?? [];

  const installations = sites.find((site) => site.id === filters.site_id)?.installations ?? [];
  const clientItems = useMemo(() => (clients ?? []).map((c) => ({ id: c.id, label: c.nom, detail: c.ville })), [clients]);

  const set = (patch: Partial<ClosedTicketsFilters>) => onChange({ ...filters, ...patch });

  const summary = [
    `Du ${formatDate(filters.date_debut)} au ${formatDate(filters.date_fin)}`,
    filters.devis_attente ? 'devis non validés uniquement' : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const activeCount = [filters.client_id, filters.site_id, filters.installation_id, filters.technicien_id, filters.metier_id].filter(
    Boolean,
  ).length;

  return (
    <section className="filters card" aria-label={TICKET_LABELS.filters}>
      <div className="filters__bar">
        <button
          type="button"
          className="btn btn--ghost filters__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="menu__caret" aria-hidden="true">
            ▾
          </span>
          {TICKET_LABELS.filters}
          {activeCount > 0 ? <span className="filters__count">{activeCount}</span> : null}
        </button>
        <span className="muted filters__summary">{summary}</span>
      </div>
      {open ? (
        <div id={panelId} className="filters__body">
          <div className="filters__grid">
            <TextField
              label="Demandé à partir du"
              type="date"
              value={filters.date_debut}
              max={filters.date_fin || undefined}
              onChange={(e) => set({ date_debut: e.target.value })}
            />
            <TextField
              label="Jusqu’au"
              type="date"
              value={filters.date_fin}
              min={filters.date_debut || undefined}
              onChange={(e) => set({ date_fin: e.target.value })}
            />
            <Autocomplete
              label="Client"
              placeholder="Rechercher un client"
              items={clientItems}
              selectedId={filters.client_id || null}
              onSelect={(item) => set({ client_id: item?.id ?? '', site_id: '', installation_id: '' })}
              emptyText={TICKET_LABELS.noClientFound}
              closeDelayMs={TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS}
            />
            <SelectField
              label="Site"
              value={filters.site_id}
              disabled={!filters.client_id}
              onChange={(e) => set({ site_id: e.target.value, installation_id: '' })}
            >
              <NamedOptions items={sites} placeholder="Tous les sites" nameOf={siteName} />
            </SelectField>
            <SelectField
              label="Installation"
              value={filters.installation_id}
              disabled={!filters.site_id}
              onChange={(e) => set({ installation_id: e.target.value })}
            >
              <NamedOptions items={installations} placeholder="Toutes les installations" />
            </SelectField>
            <SelectField label="Technicien" value={filters.technicien_id} onChange={(e) => set({ technicien_id: e.target.value })}>
              <NamedOptions items={utilisateurs} placeholder="Tous les techniciens" nameOf={personName} />
            </SelectField>
            <SelectField label="Métier" value={filters.metier_id} onChange={(e) => set({ metier_id: e.target.value })}>
              <NamedOptions items={metiers} placeholder="Tous les métiers" />
            </SelectField>
          </div>
          <div className="filters__footer">
            <label className="check-option">
              <input type="checkbox" checked={filters.devis_attente} onChange={(e) => set({ devis_attente: e.target.checked })} />
              <span>{TICKET_LABELS.onlyClosedWithPendingQuote}</span>
            </label>
            <button type="button" className="btn" onClick={onReset}>
              Réinitialiser les filtres
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
