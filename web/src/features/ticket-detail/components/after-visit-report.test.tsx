import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createTestQueryClient, jsonResponse, makeTicket, makeUser, mockApi, signIn } from '../../../testing/render-app';
import { newDraft } from '../visit-draft';
import { AfterVisitReportPanel } from './after-visit-report';
import { useAfterVisitReport } from './use-after-visit-report';

/*
 * Issue 32: after a visit, a report whose generation failed says why at once
 * (the server's sentence) and offers « Relancer », which asks for it again.
 */

const FAILED = 'La génération du rapport a échoué : le ticket ou sa visite est introuvable. Vous pouvez la relancer.';

function Harness() {
  const ticket = makeTicket({ statut: 'clos' });
  const saga = useAfterVisitReport({ ticket, technicians: [], contacts: [], canReport: true });
  return (
    <>
      <button type="button" onClick={() => void saga.start({ ...newDraft('close', null), recipients: [] })}>
        Clore
      </button>
      <AfterVisitReportPanel saga={saga} recipientIds={[]} />
    </>
  );
}

/** Renders the done screen's report and records the visit: the report is asked for. */
async function renderAndClose() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Clore' }));
  return user;
}

describe('the report after a visit (issue 32)', () => {
  it('shows why the generation failed and asks again with « Relancer »', async () => {
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    let attempts = 0;
    const api = mockApi({
      'POST /api/reports/:file': () =>
        ++attempts === 1
          ? jsonResponse(502, { error: FAILED, code: 'REPORT_FAILED', reason: 'le ticket ou sa visite est introuvable' })
          : { success: true, filename: 'rapport-LYO-2026-0001-aaaaaaaa.pdf', downloadUrl: '/api/reports/download/rapport-LYO-2026-0001-aaaaaaaa.pdf?token=lien' },
      'PATCH /api/tickets/:id': {},
    });
    const user = await renderAndClose();
    expect((await screen.findByRole('alert')).textContent).toBe(`Erreur génération PDF: 502 - ${FAILED}`);
    await user.click(screen.getByRole('button', { name: 'Relancer' }));
    expect(await screen.findByRole('link', { name: 'Télécharger le rapport' })).toBeTruthy();
    expect(api.calls('POST /api/reports/:file')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Relancer' })).toBeNull();
  });

  it('offers no « Relancer » for an answer that is not a failed generation', async () => {
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    mockApi({ 'POST /api/reports/:file': jsonResponse(409, { error: 'Le rapport ne peut être joint qu’à un ticket clos.' }) });
    await renderAndClose();
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Relancer' })).toBeNull();
  });
});
