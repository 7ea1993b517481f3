import type { Ticket } from '@fsm/contracts';
import { InfiniteQueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { loadedRows } from '../../../lib/infinite-pages';
import { createTestQueryClient, makeTicket, mockApi, pagedTickets } from '../../../testing/render-app';
import { openTicketsPagesQuery } from './get-open-tickets';
import { refreshTicketPages } from './refresh-ticket-pages';

const ticket = (i: number) =>
  makeTicket({ id: `11111111-1111-4111-8111-${String(i).padStart(12, '0')}`, num_chrono: `LYO-2026-${String(i).padStart(4, '0')}`, client_nom: `Client ${i}` });

describe('refreshTicketPages (a live change in a paged list)', () => {
  it('refetches the first page and the loaded pages showing the changed ticket, not the others', async () => {
    const server: Ticket[] = Array.from({ length: 150 }, (_, i) => ticket(i));
    const api = mockApi({ 'GET /api/tickets': pagedTickets(server) });
    const queryClient = createTestQueryClient();
    const observer = new InfiniteQueryObserver(queryClient, openTicketsPagesQuery({}));
    const stop = observer.subscribe(() => {});
    await observer.refetch();
    await observer.fetchNextPage();
    await observer.fetchNextPage();
    expect(observer.getCurrentResult().data?.pages).toHaveLength(3);
    const before = api.requests.length;

    // Ticket 70 (page 2) changes; a new ticket arrives at the head.
    server[70] = { ...server[70]!, client_nom: 'Client renommé' };
    server.unshift(ticket(999));
    await refreshTicketPages(queryClient, [server[71]!.id]);

    const cursors = api.requests.slice(before).map((request) => request.query.get('cursor'));
    expect(cursors).toEqual([null, 'c60']);
    const data = observer.getCurrentResult().data!;
    expect(data.pages[0]!.total).toBe(151);
    const rows = loadedRows(data, (page) => page.tickets);
    expect(rows[0]!.client_nom).toBe('Client 999');
    expect(rows.find((row) => row.id === server[71]!.id)?.client_nom).toBe('Client renommé');
    // Every ticket still listed once, none lost between the refreshed pages and the untouched third one.
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(rows).toHaveLength(151);
    stop();
  });

  it('drops a paged list no screen shows, so it loads its first page afresh when shown again', async () => {
    mockApi({ 'GET /api/tickets': pagedTickets([ticket(1)]) });
    const queryClient = createTestQueryClient();
    await queryClient.fetchInfiniteQuery(openTicketsPagesQuery({}));
    await refreshTicketPages(queryClient, [ticket(1).id]);
    expect(queryClient.getQueryData(openTicketsPagesQuery({}).queryKey)).toBeUndefined();
  });
});
