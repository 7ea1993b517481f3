import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHONE, launchBrowser, recordConsole, saveArtifacts, saveArtifactsOnTimeout, signedInContext, skipReason } from './support/browser.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('an agency admin sets opening hours other than the defaults (issue 18)', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('agence_hours');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('opens Tuesday 07:30–19:00 without a midday break, on a phone, and finds it so after a reload', async () => {
    const [agence] = await stack.query<{ id: string; nom: string }>(`SELECT id, nom FROM rm.agences WHERE NOT deleted ORDER BY nom LIMIT 1`);
    expect(agence).toBeTruthy();
    const context = await signedInContext(browser, stack.baseUrl, 'admin_plus@demo.fr', PHONE);
    const page = await context.newPage();
    const lines = recordConsole(page);
    saveArtifactsOnTimeout('agence-hours', [{ page, console: lines }]);
    const openForm = async () => {
      await page.getByRole('heading', { level: 1, name: 'Agences' }).waitFor();
      await page.getByRole('button', { name: `Modifier ${agence!.nom}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Modifier l'agence" });
      await dialog.getByRole('checkbox', { name: 'Mardi matin' }).waitFor();
      return dialog;
    };
    try {
      await page.goto('/agences');
      let dialog = await openForm();
      await dialog.getByLabel('Mardi matin, ouverture').fill('07:30');
      await dialog.getByLabel('Mardi matin, fermeture').fill('19:00');
      await dialog.getByRole('checkbox', { name: 'Mardi après-midi' }).uncheck();
      await dialog.getByRole('button', { name: 'Enregistrer' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Agence modifiée.').waitFor();

      await page.reload();
      dialog = await openForm();
      expect(await dialog.getByLabel('Mardi matin, ouverture').inputValue()).toBe('07:30');
      expect(await dialog.getByLabel('Mardi matin, fermeture').inputValue()).toBe('19:00');
      expect(await dialog.getByRole('checkbox', { name: 'Mardi après-midi' }).isChecked()).toBe(false);
      expect(await dialog.getByLabel('Mardi après-midi, ouverture').count()).toBe(0);
      // The other days kept their hours.
      expect(await dialog.getByLabel('Lundi matin, ouverture').inputValue()).toBe('08:00');
      expect(await dialog.getByLabel('Lundi après-midi, fermeture').inputValue()).toBe('17:30');

      // What the urgency rule reads when a ticket is opened (docs/sla.md §4).
      const [row] = await stack.query<{ horaires: Array<Record<string, unknown>> }>(`SELECT horaires FROM rm.agences WHERE id = $1`, [agence!.id]);
      expect(row?.horaires.find((day) => day.day_of_week === 2)).toEqual({
        day_of_week: 2,
        morning_open: '07:30',
        morning_close: '19:00',
        afternoon_open: null,
        afternoon_close: null,
      });
    } catch (error) {
      await saveArtifacts('agence-hours', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});
