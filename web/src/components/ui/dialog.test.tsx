import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

function ClosableDialog() {
  const [open, setOpen] = useState(true);
  return open ? (
    <Dialog open title="Affecter" onClose={() => setOpen(false)}>
      <button type="button">Affecter</button>
    </Dialog>
  ) : (
    <p>Fermé</p>
  );
}

describe('Dialog', () => {
  it('closes on Escape even after the focused button got disabled and the focus fell out of the panel', async () => {
    const user = userEvent.setup();
    render(<ClosableDialog />);
    await user.click(screen.getByRole('button', { name: 'Affecter' }));
    // As when the focused button gets disabled or replaced by a pending save: the focus falls to <body>.
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Fermé')).toBeTruthy();
  });

  it('brings the focus back into the panel on Tab when it fell out', async () => {
    const user = userEvent.setup();
    render(
      <Dialog open title="Titre" onClose={() => undefined}>
        <input aria-label="Champ" />
      </Dialog>,
    );
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Champ' }));
  });
});
