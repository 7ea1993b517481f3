import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 5: a télésurveillance operator', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('telesurv');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('creates a ticket for an assigned agency and cannot open /tickets', async () => {
    // An installation in one of the agencies the demo operator is assigned to.
    const [target] = await stack.query<{ agence_id: string; client_nom: string; site_id: string; installation_id: string }>(
      `SELECT i.agence_id, c.nom AS client_nom, i.site_id, i.id AS installation_id
         FROM rm.users u
         JOIN rm.installations i ON i.agence_id = ANY (u.telesurv_agence_ids)
         JOIN rm.clients c ON c.id = i.client_id
        WHERE lower(u.email) = 'telesurveillance@demo.fr'
          AND NOT i.deleted AND NOT i.site_deleted AND NOT i.client_deleted AND NOT c.deleted
        ORDER BY c.nom, i.nom LIMIT 1`,
    );
    expect(target, 'an installation in an agency assigned to telesurveillance@demo.fr').toBeTruthy();
    const probleme = `Alarme feu zone 3 ${Date.now()}`;

    const context = await signedInContext(browser, stack.baseUrl, 'telesurveillance@demo.fr');
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    try {
      // /tickets is not for this role: the app sends it to its own form.
      await page.goto('/tickets');
      await page.waitForURL('**/telesurv/ticket');
      await page.getByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' }).waitFor();
      const submit = page.getByRole('button', { name: 'Créer le ticket' });
      expect(await submit.isDisabled()).toBe(true);

      const agence = page.getByRole('combobox', { name: 'Agence' });
      await page.locator(`option[value="${target!.agence_id}"]`).waitFor({ state: 'attached' });
      await agence.selectOption(target!.agence_id);
      const client = page.getByRole('combobox', { name: 'Client' });
      await client.fill(target!.client_nom.slice(0, 6));
      await page.getByRole('option', { name: new RegExp(escapeRegExp(target!.client_nom)) }).first().click();
      await page.locator(`option[value="${target!.site_id}"]`).waitFor({ state: 'attached' });
      await page.getByRole('combobox', { name: 'Site' }).selectOption(target!.site_id);
      await page.locator(`option[value="${target!.installation_id}"]`).waitFor({ state: 'attached' });
      await page.getByRole('combobox', { name: 'Installation' }).selectOption(target!.installation_id);

      await page.getByLabel('Nom', { exact: true }).fill('Bernard');
      await page.getByLabel('Prénom').fill('Julie');
      await page.getByLabel('Email').fill('julie@example.fr');
      await page.getByLabel('Téléphone').fill('0612345678');
      await page.getByLabel('Problème constaté').fill(probleme);
      await submit.click();

      await page.getByText('Ticket créé.').waitFor({ timeout: 20_000 });
      // The ticket exists for the agency's dispatcher.
      await expect
        .poll(async () => (await stack.query(`SELECT 1 FROM rm.tickets WHERE probleme = $1`, [probleme])).length)
        .toBe(1);

      // Still not allowed on the board after creating one.
      await page.goto('/tickets');
      await page.waitForURL('**/telesurv/ticket');
      // Wait for the form to render after the redirect: isVisible() does not wait.
      await page.getByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' }).waitFor({ timeout: 10_000 });
    } catch (error) {
      await saveArtifacts('journey-5', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
