import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHONE, launchBrowser, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { expectReadableLayout } from './support/layout-checks.js';
import { drawSignature } from './support/signature.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 3: a re-intervention', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('reintervention');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('adds a second entry to the ticket’s history, with its own report', async () => {
    const [tech] = await stack.query<{ agence_id: string }>(`SELECT agence_id FROM rm.users WHERE lower(email) = 'technicien@demo.fr'`);
    const [ticket] = await stack.query<{ id: string; num_chrono: string }>(
      `SELECT id, num_chrono FROM rm.tickets WHERE statut = 'en_cours' AND interventions_supp_count = 0 AND agence_id = $1 ORDER BY created_at LIMIT 1`,
      [tech!.agence_id],
    );
    expect(ticket, 'an in-progress seeded ticket without re-intervention').toBeTruthy();
    const constat = `Remplacement de la carte mère prévu ${Date.now()}`;

    // On the technician's phone, where the submit button was cut ('…lider la ré-interventi…', issue 18).
    const context = await signedInContext(browser, stack.baseUrl, 'technicien@demo.fr', PHONE);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    try {
      await page.goto(`/tickets/${ticket!.id}`);
      await page.getByRole('button', { name: 'Ré-intervention' }).click();
      const wizard = page.getByRole('dialog', { name: 'Ré-intervention' });
      await wizard.getByRole('heading', { name: /^Étape 1 sur 3/ }).waitFor();
      await wizard.getByRole('radio', { name: 'En dérangement', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await wizard.getByRole('heading', { name: /^Étape 2 sur 3/ }).waitFor();
      await wizard.getByLabel('Constat du technicien').fill(constat);
      await wizard.getByRole('radio', { name: 'Partiellement fonctionnel', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du client' }));
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du technicien' }));
      await expect.poll(() => wizard.getByText('Signé', { exact: true }).count()).toBe(2);
      await expectReadableLayout(page, 'Ré-intervention, étape 3 (téléphone)');
      await wizard.getByRole('button', { name: 'Valider la ré-intervention' }).click();
      await wizard.getByText('Ré-intervention enregistrée').first().waitFor({ timeout: 20_000 });
      await wizard.getByRole('link', { name: 'Télécharger le rapport' }).waitFor({ timeout: 60_000 });
      await wizard.getByRole('button', { name: 'Fermer' }).first().click();
      await wizard.waitFor({ state: 'detached' });

      // The history now has the visit, after the ticket's main entry.
      await page.getByText('Ré-intervention 1').first().waitFor({ timeout: 20_000 });
      await page.getByText(constat).first().waitFor();
      // Its report is its own: saved on the intervention, not on the ticket.
      await expect
        .poll(async () => (await stack.query<{ nom_rapport: string | null }>(`SELECT nom_rapport FROM rm.ticket_interventions WHERE ticket_id = $1`, [ticket!.id])).map((r) => r.nom_rapport))
        .toEqual([expect.stringMatching(/\.pdf$/)]);
      const [after] = await stack.query<{ statut: string; nom_rapport: string | null }>(`SELECT statut, nom_rapport FROM rm.tickets WHERE id = $1`, [ticket!.id]);
      expect(after).toEqual({ statut: 'intervention', nom_rapport: null });
    } catch (error) {
      await saveArtifacts('journey-3', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});
