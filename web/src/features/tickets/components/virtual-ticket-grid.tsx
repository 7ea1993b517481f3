import type { Ticket } from '@fsm/contracts';
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useDocumentTop } from '../../../lib/use-document-top';
import { TicketCard } from './ticket-card';

/** The grid's `minmax(min(22rem, 100%), 1fr)` columns (tickets.css `.ticket-grid`). */
const CARD_MIN_WIDTH_REM = 22;
const FALLBACK_GAP_PX = 12;
/** A card's usual height; rows are measured once drawn. */
const ESTIMATED_ROW_PX = 280;
/** Rows drawn beyond the screen, so Tab and arrow scrolling find the next card already there. */
const OVERSCAN_ROWS = 3;
/** The next page is asked for this many rows before the end of what is loaded. */
const PREFETCH_ROWS = 6;

interface GridColumns {
  columns: number;
  gap: number;
}

/** The columns the CSS grid would make of the list's width. */
function useGridColumns(list: RefObject<HTMLElement | null>): GridColumns {
  const [grid, setGrid] = useState<GridColumns>({ columns: 1, gap: FALLBACK_GAP_PX });
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const measure = () => {
      const gap = Number.parseFloat(getComputedStyle(element).columnGap) || FALLBACK_GAP_PX;
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const width = element.getBoundingClientRect().width;
      const columns = Math.max(1, Math.floor((width + gap) / (CARD_MIN_WIDTH_REM * rem + gap)));
      setGrid((old) => (old.columns === columns && old.gap === gap ? old : { columns, gap }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [list]);
  return grid;
}

export interface VirtualTicketGridProps {
  tickets: readonly Ticket[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Never restarts a page already on its way (react-query's default would, on every scroll). */
  fetchNextPage: (options: { cancelRefetch: boolean }) => unknown;
  onOpenPhoto: (ticket: Ticket) => void;
  onValidateQuote: ((ticket: Ticket) => void) | undefined;
}

/**
 * The ticket cards, drawing only the rows on screen (issue #19: 8,000 cards
 * made 275,000 DOM nodes). The page scrolls as before (the window, phones
 * included); rows of as many cards as the grid has columns are measured once
 * drawn, cards keep their DOM order for Tab, and the row holding the focus
 * stays drawn while it is scrolled away (the photo overlay gives the focus
 * back to its thumbnail). Nearing the end of the loaded rows asks for the
 * next page.
 */
export function VirtualTicketGrid({ tickets, hasNextPage, isFetchingNextPage, fetchNextPage, onOpenPhoto, onValidateQuote }: VirtualTicketGridProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const { columns, gap } = useGridColumns(listRef);
  const top = useDocumentTop(listRef);
  const rows = useMemo(() => {
    const out: Ticket[][] = [];
    for (let i = 0; i < tickets.length; i += columns) out.push(tickets.slice(i, i + columns));
    return out;
  }, [tickets, columns]);

  const focusedRow = useRef<number | null>(null);
  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const focused = focusedRow.current;
    if (focused === null || focused >= range.count || indexes.includes(focused)) return indexes;
    return [...indexes, focused].sort((a, b) => a - b);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN_ROWS,
    gap,
    scrollMargin: top,
    rangeExtractor,
    // A row is measured under its key: with another column count it is another row.
    getItemKey: (index) => `${columns}:${rows[index]?.[0]?.id ?? index}`,
  });
  const items = virtualizer.getVirtualItems();

  const lastDrawn = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastDrawn >= rows.length - 1 - PREFETCH_ROWS) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, lastDrawn, rows.length, fetchNextPage]);

  return (
    <div
      ref={listRef}
      role="list"
      aria-label="Tickets"
      className="ticket-grid"
      style={{ display: 'block', position: 'relative', height: virtualizer.getTotalSize() }}
    >
      {items.map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          className="ticket-grid"
          onFocus={() => {
            focusedRow.current = item.index;
          }}
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          }}
        >
          {(rows[item.index] ?? []).map((ticket) => (
            <div role="listitem" key={ticket.id}>
              <TicketCard ticket={ticket} onOpenPhoto={onOpenPhoto} onValidateQuote={onValidateQuote} />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
