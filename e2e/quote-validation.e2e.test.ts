import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 4: validating a quote from the detail', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('quote');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("removes the 'Devis non validé' icon from the list and lowers the home tile", async () => {
    // An open ticket of the demo agency whose quote is pending.
    const [ticket] = await stack.query<{ id: string; num_chrono: string }>(
      `SELECT t.id, t.num_chrono FROM rm.tickets t JOIN rm.users u ON u.agence_id = t.agence_id
        WHERE lower(u.email) = 'admin@demo.fr' AND t.statut <> 'clos' AND t.devis = 1 AND t.numero_devis IS NULL
        ORDER BY t.num_chrono LIMIT 1`,
    );
    expect(ticket, 'an open ticket with a pending quote in the demo data').toBeTruthy();

    const context = await signedInContext(browser, stack.baseUrl, 'admin@demo.fr');
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    const pendingTile = () => page.getByRole('region', { name: 'Devis en attente' }).getByRole('link', { name: /Tickets actifs/ });
    const tileCount = async () => Number(/^(\d+)/.exec(((await pendingTile().textContent()) ?? '').trim())?.[1] ?? NaN);
    const card = () => page.getByRole('article').filter({ hasText: ticket!.num_chrono });
    try {
      await page.goto('/dashboard');
      await pendingTile().waitFor();
      await expect.poll(tileCount).toBeGreaterThan(0);
      const before = await tileCount();

      await page.goto('/tickets');
      await card().waitFor();
      expect(await card().getByText('Devis non validé').count()).toBeGreaterThan(0);

      await page.goto(`/tickets/${ticket!.id}`);
      const quote = page.getByRole('region', { name: 'Devis' });
      await quote.getByRole('button', { name: 'Valider le devis' }).click();
      const dialog = page.getByRole('dialog', { name: 'Valider le devis' });
      // The number is mandatory.
      await dialog.getByRole('button', { name: 'Valider le devis' }).click();
      await dialog.getByText('Le numéro de devis est obligatoire.').waitFor();
      await dialog.getByLabel('Numéro de devis').fill('DV-2026-0042');
      await dialog.getByRole('button', { name: 'Valider le devis' }).click();
      await dialog.waitFor({ state: 'detached' });
      await quote.getByText('DV-2026-0042').waitFor();

      await page.goto('/tickets');
      await card().waitFor();
      expect(await card().getByText('Devis non validé').count()).toBe(0);

      await page.goto('/dashboard');
      await pendingTile().waitFor();
      await expect.poll(tileCount).toBe(before - 1);
    } catch (error) {
      await saveArtifacts('journey-4', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});
