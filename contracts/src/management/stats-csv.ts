import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import { CSV_SEPARATOR, toCsvDocument } from './csv.js';
import { PARIS_TIME_ZONE } from '../calendar/paris-time.js';
import type { StatsTicketItem } from './stats.js';

/** The 'Exporter CSV' file of the statistics screen (§9). */
export const STATS_CSV_SEPARATOR = CSV_SEPARATOR;
export const STATS_CSV_HEADER = [
  'Ticket ID',
  'N° Chrono',
  'Client',
  'Site',
  'Installation',
  'Technicien',
  'Créé le',
  'Clôturé le',
  'Respect délai intervention',
  'Respect délai devis',
  'Interventions',
] as const;
export const STATS_CSV_YES = 'Oui';
export const STATS_CSV_NO = 'Non';
export const STATS_CSV_NOT_APPLICABLE = 'N/A';
export const STATS_CSV_DATE_FORMAT = 'dd/MM/yyyy HH:mm';

/** stats_tickets_{date}.csv, the date being the export day in Paris (yyyy-MM-dd sorts well). */
export function statsCsvFileName(now: Date, timeZone: string = PARIS_TIME_ZONE): string {
  return `stats_tickets_${format(now, 'yyyy-MM-dd', { in: tz(timeZone) })}.csv`;
}

export function statsCsvFlag(flag: boolean | null): string {
  if (flag === null) return STATS_CSV_NOT_APPLICABLE;
  return flag ? STATS_CSV_YES : STATS_CSV_NO;
}

export function formatStatsCsvDate(iso: string | null, timeZone: string = PARIS_TIME_ZONE): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : format(date, STATS_CSV_DATE_FORMAT, { in: tz(timeZone) });
}

/**
 * The whole file: BOM, header, one line per ticket, CRLF line ends. Cells are
 * quoted when needed (see escapeCsvCell). Pass `bom: false` when the caller adds
 * its own.
 */
export function toStatsCsv(items: readonly StatsTicketItem[], options: { timeZone?: string; bom?: boolean } = {}): string {
  const timeZone = options.timeZone ?? PARIS_TIME_ZONE;
  const rows = items.map((item) => statsCsvRow(item, timeZone));
  return toCsvDocument(STATS_CSV_HEADER, rows, { bom: options.bom ?? true });
}

/**
 * One ticket's cells, in STATS_CSV_HEADER order (before escaping). Exported
 * for the streamed export, which writes the file page by page with toCsvLine
 * instead of building it whole with toStatsCsv.
 */
export function statsCsvRow(item: StatsTicketItem, timeZone: string = PARIS_TIME_ZONE): (string | number | null)[] {
  return statsCsvCells(item, formatStatsCsvDate(item.created_at, timeZone), formatStatsCsvDate(item.clos_at, timeZone));
}

/**
 * The cells of a row, its two dates already written as the file writes them
 * (by formatStatsCsvDate, or by Postgres for the streamed export): the one
 * place that knows the columns' order.
 */
export function statsCsvCells(
  item: Omit<StatsTicketItem, 'created_at' | 'clos_at'>,
  creeLe: string,
  clotureLe: string,
): (string | number | null)[] {
  return [
    item.id,
    item.num_chrono,
    item.client_nom,
    item.site_nom,
    item.installation_nom,
    [item.technicien_prenom, item.technicien_nom].filter(Boolean).join(' '),
    creeLe,
    clotureLe,
    statsCsvFlag(item.sla_ok),
    statsCsvFlag(item.devis_ok),
    item.interventions_count,
  ];
}
