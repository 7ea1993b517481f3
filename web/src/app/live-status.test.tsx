import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ticketKeys } from '../features/tickets/api/ticket-keys';
import { applyLiveMessage } from '../lib/live-updates';
import { liveInvalidators } from './live-invalidators';
import { LiveStatusContext, LiveUpdatesIndicator, type LiveConnectionState } from './live-status';
import '../testing/render-app';

function renderIndicator(status: LiveConnectionState) {
  return render(
    <LiveStatusContext.Provider value={status}>
      <LiveUpdatesIndicator />
    </LiveStatusContext.Provider>,
  );
}

describe('live updates indicator', () => {
  it.each(['off', 'connecting', 'open'] as const)('says nothing while %s', (status) => {
    renderIndicator(status);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when live updates are interrupted', () => {
    renderIndicator('reconnecting');
    expect(screen.getByRole('status').textContent).toBe('Mises à jour en direct interrompues — reconnexion…');
  });

  it('says when the server refused them', () => {
    renderIndicator('stopped');
    expect(screen.getByRole('status').textContent).toMatch(/^Mises à jour en direct désactivées/);
  });
});

describe('live board', () => {
  it('a message about one ticket refetches the mounted lists and that detail, not the other details', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const fetches = { list: 0, summary: 0, detailA: 0, detailB: 0 };
    const watch = (queryKey: readonly unknown[], counter: keyof typeof fetches) =>
      new QueryObserver(queryClient, {
        queryKey,
        queryFn: async () => {
          fetches[counter] += 1;
          return fetches[counter];
        },
      }).subscribe(() => {});
    const stop = [
      watch(ticketKeys.openList(), 'list'),
      watch(ticketKeys.summary(), 'summary'),
      watch(ticketKeys.detail('a'), 'detailA'),
      watch(ticketKeys.detail('b'), 'detailB'),
    ];
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(fetches).toEqual({ list: 1, summary: 1, detailA: 1, detailB: 1 });

    await act(async () => {
      applyLiveMessage(queryClient, { position: '9', streams: ['ticket-a'], resync: false }, liveInvalidators);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(fetches).toEqual({ list: 2, summary: 2, detailA: 2, detailB: 1 });
    stop.forEach((unsubscribe) => unsubscribe());
  });
});
