import {
  TICKET_LABELS,
  TICKET_SUCCESS_BANNER_MS,
  ticketListSearchSchema,
  type OpenTicketCounts,
  type Ticket,
} from '@fsm/contracts';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { PhotoOverlay } from '../../../components/ui/photo-overlay';
import { useCurrentUser } from '../../../app/guards';
import { errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { loadedRows } from '../../../lib/infinite-pages';
import { matchesSearch } from '../../../lib/text-search';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PERMISSIONS, hasPermission } from '../../../lib/access';
import { useClosedTicketsPages } from '../api/get-closed-tickets';
import { useOpenTicketsPages } from '../api/get-open-tickets';
import type { ClosedTicketsFilters, OpenTicketsPageFilters } from '../api/ticket-keys';
import { AddTicketDialog } from './add-ticket-dialog';
import { ClosedMatchesOffer } from './closed-matches-offer';
import { CLOSED_ID_KEYS, closedFiltersFromUrl, closedFiltersToUrl, defaultClosedFilters } from './closed-filters-url';
import { ClosedFiltersPanel } from './closed-filters-panel';
import { QuoteValidationDialog } from './quote-validation-dialog';
import { VirtualTicketGrid } from './virtual-ticket-grid';

type OpenChip = 'tout' | 'urgent' | 'ouvert' | 'en_cours' | 'intervention' | 'en_retard';

/**
 * Each chip with the server's count of it (first page of GET /api/tickets?limit).
 * « En retard » (issue 32) follows the spec's five: late tickets, most late first.
 */
const CHIPS: readonly { id: OpenChip; label: string; count: keyof OpenTicketCounts }[] = [
  { id: 'tout', label: 'Tout', count: 'tout' },
  { id: 'urgent', label: 'Urgents', count: 'urgents' },
  { id: 'ouvert', label: 'Ouverts', count: 'ouverts' },
  { id: 'en_cours', label: 'En cours', count: 'en_cours' },
  { id: 'intervention', label: 'Interventions', count: 'interventions' },
  { id: 'en_retard', label: 'En retard', count: 'en_retard' },
];

/** The chip and the pending-quote box as the server filters them. */
function openPageFilters(chip: OpenChip, devisAttente: boolean): OpenTicketsPageFilters {
  return {
    statut: chip === 'tout' || chip === 'urgent' || chip === 'en_retard' ? undefined : chip,
    urgent: chip === 'urgent' ? true : undefined,
    devis_attente: devisAttente ? true : undefined,
    en_retard: chip === 'en_retard' ? true : undefined,
  };
}

/** `8 172 tickets`, the figure of the whole result whatever is loaded. */
function ticketCountLabel(count: number): string {
  return `${formatNumber(count)} ticket${count > 1 ? 's' : ''}`;
}

/**
 * The open board's quick search: a substring of the client, number, site,
 * town, installation or technician's name (« Hélène », « dupre », « Hélène
 * Dupré »), ignoring case and accents (issue 32, item 9).
 */
function ticketMatchesSearch(ticket: Ticket, search: string): boolean {
  const technician = [ticket.technicien_prenom, ticket.technicien_nom].filter(Boolean).join(' ');
  return matchesSearch(search, ticket.client_nom, ticket.num_chrono, ticket.site_nom, ticket.site_ville, ticket.installation_nom, technician);
}

/** `/` focuses the search from anywhere on the board, unless the user is typing somewhere. */
function useSlashToFocus(target: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const active = event.target as HTMLElement | null;
      if (active && (active.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(active.tagName))) return;
      if (document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      target.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [target]);
}

/**
 * The ticket list (spec §2 "Ticket list"). Its URL carries the view and the
 * open view's chip (`statut`, `urgent`, `devis_attente`), so the home tiles
 * link straight to a filtered list and the browser's back button works.
 */
export function TicketListScreen() {
  const [params, setParams] = useSearchParams();
  const search = ticketListSearchSchema.parse(Object.fromEntries(params));
  const closedView = search.statut === 'clos';
  const title = closedView ? TICKET_LABELS.closedListTitle : TICKET_LABELS.openListTitle;
  useDocumentTitle(title);

  const user = useCurrentUser();
  const canValidateQuotes = hasPermission(user, PERMISSIONS.ticketsDevis);

  const [adding, setAdding] = useState(false);
  const [banner, setBanner] = useState<{ text: string; id: number } | null>(null);
  const [photoOf, setPhotoOf] = useState<Ticket | null>(null);
  const [quoteOf, setQuoteOf] = useState<Ticket | null>(null);
  // The open board's quick search is the screen's; the closed search's text is in its URL with its filters.
  const [openSearch, setOpenSearch] = useState('');
  const closedFilters = closedView ? closedFiltersFromUrl(params, search.devis_attente === true) : null;
  const quickSearch = closedFilters ? (closedFilters.q ?? '') : openSearch;
  const setClosedFilters = (next: ClosedTicketsFilters, replace = false) => setParams(closedFiltersToUrl(next), { replace });
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashToFocus(searchRef);

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), TICKET_SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  const setSearch = (next: Record<string, string | undefined>) => {
    const out = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) out.set(key, value);
    setParams(out, { replace: false });
  };

  return (
    <section className="stack ticket-list" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
        <div className="cluster">
          <input
            ref={searchRef}
            type="search"
            className="input list-search"
            aria-label="Rechercher un ticket"
            aria-keyshortcuts="/"
            placeholder="Rechercher… ( / )"
            value={quickSearch}
            onChange={(e) => (closedFilters ? setClosedFilters({ ...closedFilters, q: e.target.value }, true) : setOpenSearch(e.target.value))}
          />
          <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}>
            {TICKET_LABELS.addTicket}
          </button>
          {closedView ? (
            <button type="button" className="btn" onClick={() => setSearch({})}>
              Voir les tickets en cours
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => setSearch({ statut: 'clos' })}>
              Voir les tickets clos
            </button>
          )}
        </div>
      </div>

      {banner ? (
        <Banner tone="success" key={banner.id}>
          {banner.text}
        </Banner>
      ) : null}

      {closedFilters ? (
        <ClosedTickets
          filters={closedFilters}
          onChange={(next) => setClosedFilters(next)}
          onReset={() => setClosedFilters({ ...defaultClosedFilters(false), q: closedFilters.q ?? '' })}
          onOpenPhoto={setPhotoOf}
          onValidateQuote={canValidateQuotes ? setQuoteOf : undefined}
        />
      ) : (
        <OpenTickets
          chip={search.en_retard ? 'en_retard' : search.urgent ? 'urgent' : search.statut && search.statut !== 'clos' ? search.statut : 'tout'}
          devisAttente={search.devis_attente === true}
          onChip={(chip) =>
            setSearch(
              chip === 'tout'
                ? { devis_attente: search.devis_attente ? '1' : undefined }
                : chip === 'urgent'
                  ? { urgent: '1', devis_attente: search.devis_attente ? '1' : undefined }
                  : chip === 'en_retard'
                    ? { en_retard: '1', devis_attente: search.devis_attente ? '1' : undefined }
                    : { statut: chip, devis_attente: search.devis_attente ? '1' : undefined },
            )
          }
          onClearDevisAttente={() =>
            setSearch({ statut: search.statut, urgent: search.urgent ? '1' : undefined })
          }
          onOpenPhoto={setPhotoOf}
          onValidateQuote={canValidateQuotes ? setQuoteOf : undefined}
          search={openSearch}
        />
      )}

      <AddTicketDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(text) => setBanner({ text, id: Date.now() })}
      />
      <PhotoOverlay
        src={photoOf?.photo ?? null}
        alt={photoOf ? `Photo du ticket ${photoOf.num_chrono}` : ''}
        onClose={() => setPhotoOf(null)}
      />
      <QuoteValidationDialog ticket={quoteOf} onClose={() => setQuoteOf(null)} />
    </section>
  );
}

interface ListCallbacks {
  onOpenPhoto: (ticket: Ticket) => void;
  onValidateQuote: ((ticket: Ticket) => void) | undefined;
  search: string;
}

function OpenTickets({
  chip,
  devisAttente,
  onChip,
  onClearDevisAttente,
  ...callbacks
}: ListCallbacks & {
  chip: OpenChip;
  devisAttente: boolean;
  onChip: (chip: OpenChip) => void;
  onClearDevisAttente: () => void;
}) {
  const filters = useMemo(() => openPageFilters(chip, devisAttente), [chip, devisAttente]);
  const query = useOpenTicketsPages(filters);
  const results = useResults(query);
  const counts = query.data?.pages[0]?.counts ?? null;

  return (
    <>
      <div className="cluster" role="group" aria-label="Filtrer les tickets">
        {CHIPS.map((c) => (
          <button
            key={c.id}
            type="button"
            className={c.id === 'en_retard' ? 'filter-chip filter-chip--late' : 'filter-chip'}
            aria-pressed={chip === c.id}
            onClick={() => onChip(c.id)}
          >
            {c.label}
            {counts?.[c.count] !== undefined ? <span className="filter-chip__count">{formatNumber(counts[c.count] ?? 0)}</span> : null}
          </button>
        ))}
        {devisAttente ? (
          <button type="button" className="filter-tag" onClick={onClearDevisAttente} aria-label="Retirer le filtre : devis en attente">
            Devis en attente <span aria-hidden="true">×</span>
          </button>
        ) : null}
      </div>
      {chip === 'en_retard' ? <p className="muted list-note">Les plus en retard d’abord (échéance dépassée depuis le plus longtemps).</p> : null}
      <TicketResults {...results} emptyText={chip === 'en_retard' ? 'Aucun ticket en retard.' : TICKET_LABELS.emptyOpen} offerClosedMatches {...callbacks} />
    </>
  );
}

/** The closed search: its filters and text come from the URL; the text is searched by the server (`q`), once typing pauses. */
function ClosedTickets({
  filters,
  onChange,
  onReset,
  ...callbacks
}: Omit<ListCallbacks, 'search'> & { filters: ClosedTicketsFilters; onChange: (next: ClosedTicketsFilters) => void; onReset: () => void }) {
  const q = useDebouncedValue((filters.q ?? '').trim());
  // Rebuilt from the URL on every render: the query key is hashed, so a new object with the same values is the same query.
  const results = useResults(useClosedTicketsPages({ ...filters, q }));
  const defaults = defaultClosedFilters(false);
  const narrowed =
    filters.devis_attente || filters.date_debut !== defaults.date_debut || filters.date_fin !== defaults.date_fin || CLOSED_ID_KEYS.some((key) => filters[key] !== '');

  return (
    <>
      <ClosedFiltersPanel filters={filters} defaultOpen={narrowed} onChange={onChange} onReset={onReset} />
      <TicketResults {...results} emptyText={q ? `Aucun ticket clos ne correspond à « ${q} ».` : TICKET_LABELS.emptyClosed} search="" {...callbacks} />
    </>
  );
}

/** What a list's pages query gives TicketResults (the open and the closed lists alike). */
interface TicketPagesQuery {
  data: { pages: readonly { tickets: readonly Ticket[]; total: number }[] } | undefined;
  isPending: boolean;
  isPlaceholderData: boolean;
  isError: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: (options: { cancelRefetch: boolean }) => unknown;
}

/** The loaded tickets, each once, under the true total, and how to load more. */
function useResults(query: TicketPagesQuery) {
  const tickets = useMemo(() => loadedRows(query.data, (page) => page.tickets), [query.data]);
  return {
    tickets,
    total: query.data?.pages[0]?.total ?? 0,
    isPending: query.isPending,
    isRefreshing: query.isPlaceholderData,
    error: query.isError ? query.error : null,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  };
}

/**
 * The loaded tickets, drawn as they come into view, under the true total. The
 * quick search filters what is loaded and goes on loading the next pages
 * while it finds nothing, so it reaches every ticket of the list.
 */
function TicketResults({
  tickets,
  total,
  isPending,
  isRefreshing = false,
  error,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  emptyText,
  offerClosedMatches = false,
  onOpenPhoto,
  onValidateQuote,
  search,
}: ListCallbacks & {
  tickets: Ticket[];
  total: number;
  isPending: boolean;
  isRefreshing?: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Never restarts a page already on its way (react-query's default would, on every scroll). */
  fetchNextPage: (options: { cancelRefetch: boolean }) => unknown;
  emptyText: string;
  /** The open board: when nothing open matches the search, offer the closed tickets it matches (issue 32). */
  offerClosedMatches?: boolean;
}) {
  const searching = search.trim() !== '';
  const found = useMemo(() => (searching ? tickets.filter((t) => ticketMatchesSearch(t, search)) : tickets), [tickets, search, searching]);
  const searchingFurther = searching && found.length === 0 && hasNextPage && !error;
  useEffect(() => {
    if (searchingFurther && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [searchingFurther, isFetchingNextPage, fetchNextPage]);

  if (isPending) {
    return (
      <div className="stack" aria-busy="true">
        <p className="muted" role="status">
          {TICKET_LABELS.loading}
        </p>
        {[0, 1, 2].map((i) => (
          <span key={i} className="skeleton skeleton--card" aria-hidden="true" />
        ))}
      </div>
    );
  }
  if (error && tickets.length === 0) return <Banner tone="error">{errorMessage(error, 'Erreur serveur')}</Banner>;
  if (tickets.length === 0 && !searching) {
    return (
      <div className="empty-state">
        <p>{emptyText}</p>
      </div>
    );
  }
  if (found.length === 0) {
    return (
      <div className="empty-state" aria-busy={searchingFurther || undefined}>
        <p>{searchingFurther ? TICKET_LABELS.loading : `Aucun ticket ne correspond à « ${search.trim()} ».`}</p>
        {offerClosedMatches && !searchingFurther ? <ClosedMatchesOffer text={search} /> : null}
      </div>
    );
  }

  return (
    <div className="ticket-results stack" aria-busy={isRefreshing || undefined}>
      <p className="muted" role="status">
        {searching ? `${ticketCountLabel(found.length)} sur ${ticketCountLabel(total)}` : ticketCountLabel(total)}
      </p>
      <VirtualTicketGrid
        tickets={found}
        hasNextPage={hasNextPage && !error}
        isFetchingNextPage={isFetchingNextPage}
        fetchNextPage={fetchNextPage}
        onOpenPhoto={onOpenPhoto}
        onValidateQuote={onValidateQuote}
      />
      {isFetchingNextPage ? (
        <p className="muted" role="status">
          {TICKET_LABELS.loading}
        </p>
      ) : null}
      {error ? <Banner tone="error">{errorMessage(error, 'Erreur serveur')}</Banner> : null}
    </div>
  );
}
