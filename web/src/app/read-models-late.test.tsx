import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { READ_MODELS_LATE_MESSAGE } from '@fsm/contracts';
import { IDS, TECHNICIANS, jsonResponse, makeTicket, mockApi, renderApp, signIn } from '../testing/render-app';

/*
 * A command answered 202 (recorded, read models late; docs/tickets-api.md):
 * the screen goes on as after a 200, a toast says the display will follow,
 * and the live update for the ticket's stream re-reads it.
 */

class FakeWebSocket {
  static sockets: FakeWebSocket[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.sockets.push(this);
  }
  send() {}
  close() {}
}

/** 'Prendre en charge' on the detail, for Marc Roux. */
async function takeInCharge(app: ReturnType<typeof renderApp>) {
  await app.user.click(await screen.findByRole('button', { name: 'Prendre en charge' }));
  const dialog = within(screen.getByRole('dialog', { name: 'Prendre en charge' }));
  await dialog.findByRole('option', { name: 'Marc Roux' });
  await app.user.selectOptions(dialog.getByRole('combobox', { name: 'Technicien' }), IDS.technicien2);
  await app.user.click(dialog.getByRole('button', { name: 'Confirmer' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeWebSocket.sockets = [];
});

describe('a command whose read models are late (202)', () => {
  it('shows the French message, then re-reads the ticket when the live update for its stream arrives', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    signIn();
    const open = makeTicket();
    const taken = makeTicket({ statut: 'en_cours', technicien_prenom: 'Marc', technicien_nom: 'Roux', id_technicien: IDS.technicien2 });
    let current = open;
    const api = mockApi({
      'GET /api/tickets/:id': () => current,
      'GET /api/tickets/:id/interventions': [],
      'GET /api/interlocuteurs/installation/:id': [],
      'GET /api/interlocuteurs/site-only/:id': [],
      'GET /api/utilisateurs': TECHNICIANS,
      // Recorded, but the read models still show the ticket open: the answer says so.
      'PATCH /api/tickets/:id': () => jsonResponse(202, { ...open, pending: { position: '42', message: READ_MODELS_LATE_MESSAGE } }),
    });
    const app = renderApp(`/tickets/${IDS.ticket}`, { liveUpdates: true });
    const socket = FakeWebSocket.sockets.at(-1)!;
    await act(async () => socket.onopen?.(new Event('open')));

    await takeInCharge(app);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(READ_MODELS_LATE_MESSAGE)).toBeTruthy();
    const readsBefore = api.calls('GET /api/tickets/:id').length;

    // The projections catch up: the server pushes the ticket's stream, the screen re-reads it.
    current = taken;
    await act(async () => socket.onmessage?.(new MessageEvent('message', { data: JSON.stringify({ position: '42', streams: [`ticket-${IDS.ticket}`] }) })));
    expect(await screen.findByRole('button', { name: 'Clôturer le ticket' })).toBeTruthy();
    expect(api.calls('GET /api/tickets/:id').length).toBeGreaterThan(readsBefore);
  });

  it('shows nothing more on a 200', async () => {
    signIn();
    const taken = makeTicket({ statut: 'en_cours', id_technicien: IDS.technicien2 });
    mockApi({
      'GET /api/tickets/:id': makeTicket(),
      'GET /api/tickets/:id/interventions': [],
      'GET /api/interlocuteurs/installation/:id': [],
      'GET /api/interlocuteurs/site-only/:id': [],
      'GET /api/utilisateurs': TECHNICIANS,
      'PATCH /api/tickets/:id': taken,
    });
    const app = renderApp(`/tickets/${IDS.ticket}`);
    await takeInCharge(app);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(READ_MODELS_LATE_MESSAGE)).toBeNull();
  });
});
