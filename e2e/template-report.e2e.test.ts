import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, recordConsole, saveArtifacts, saveArtifactsOnTimeout, signedInContext, skipReason } from './support/browser.js';
import { pdfText } from '@fsm/workers/test-support';
import { drawSignature } from './support/signature.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 7: an edited template is used by the next report', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('template_report');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('duplicates and edits the template in the rich-text editor, assigns it to the agency, and the next report PDF carries the typed text', async () => {
    const [tech] = await stack.query<{ id: string; agence_id: string; agence_nom: string }>(
      `SELECT u.id, u.agence_id, a.nom AS agence_nom FROM rm.users u JOIN rm.agences a ON a.id = u.agence_id WHERE lower(u.email) = 'technicien@demo.fr'`,
    );
    expect(tech).toBeTruthy();
    const [ticket] = await stack.query<{ id: string; num_chrono: string }>(
      `SELECT id, num_chrono FROM rm.tickets WHERE statut = 'ouvert' AND agence_id = $1 ORDER BY created_at LIMIT 1`,
      [tech!.agence_id],
    );
    expect(ticket, 'an open seeded ticket in the technician’s agency').toBeTruthy();
    // Short enough to stay on one line of the title it is typed into.
    const marker = `Visite NF S 61-933 ${Date.now().toString(36)}`;
    const templateName = `Rapport Lyon ${Date.now().toString(36)}`;
    const pages: Array<{ page: Page; console: string[] }> = [];
    saveArtifactsOnTimeout('journey-7', pages);

    // --- The admin edits a template and gives it to the technician's agency.
    const adminContext = await signedInContext(browser, stack.baseUrl, 'admin_plus@demo.fr');
    const admin = await adminContext.newPage();
    pages.push({ page: admin, console: recordConsole(admin) });
    try {
      await admin.goto('/template-builder');
      await admin.getByRole('heading', { level: 1, name: 'Templates de documents' }).waitFor();
      const name = admin.getByRole('textbox', { name: 'Nom du modèle' });
      // The first template (the demo agency's report) opens by itself.
      await expect.poll(() => name.inputValue(), { timeout: 30_000 }).not.toBe('');
      const original = await name.inputValue();
      await admin.getByRole('button', { name: 'Dupliquer' }).click();
      await expect.poll(() => name.inputValue()).toBe(`${original} (copie)`);
      await name.fill(templateName);

      const content = admin.getByRole('textbox', { name: 'Contenu du modèle' });
      // At the very top, so it lands on the first page: once the report ran to two
      // pages, the PDF reader did not find the second page's text.
      await content.click();
      await admin.keyboard.press('Control+Home');
      await admin.keyboard.type(marker);
      await admin.keyboard.press('Enter');
      await content.getByText(marker).waitFor();

      await admin.getByRole('button', { name: 'Sauvegarder' }).click();
      await admin.getByText('Modèle enregistré.').waitFor({ timeout: 30_000 });
      const listed = admin.getByRole('complementary', { name: 'Modèles' }).getByRole('button', { name: templateName });
      await listed.waitFor();

      await admin.getByRole('button', { name: 'Agence', exact: true }).click();
      const assign = admin.getByRole('dialog', { name: 'Affecter le modèle à une agence' });
      await assign.getByRole('button', { name: `Affecter le modèle à ${tech!.agence_nom}` }).click();
      await assign.getByRole('button', { name: `Retirer le modèle de ${tech!.agence_nom}` }).waitFor({ timeout: 30_000 });
      await assign.getByText('Utilise ce modèle').waitFor();
      await admin.keyboard.press('Escape');
      await assign.waitFor({ state: 'detached' });
    } catch (error) {
      await saveArtifacts('journey-7-template', pages);
      throw error;
    } finally {
      await adminContext.close();
    }

    // --- The technician closes a ticket of that agency (as in journey 2); the workers render the report.
    const techContext = await signedInContext(browser, stack.baseUrl, 'technicien@demo.fr');
    const page = await techContext.newPage();
    pages.push({ page, console: recordConsole(page) });
    try {
      await page.goto(`/tickets/${ticket!.id}`);
      await page.getByRole('button', { name: 'Prendre en charge' }).click();
      const take = page.getByRole('dialog', { name: 'Prendre en charge' });
      await take.locator(`option[value="${tech!.id}"]`).waitFor({ state: 'attached' });
      await take.getByRole('combobox', { name: 'Technicien' }).selectOption(tech!.id);
      await take.getByRole('button', { name: 'Confirmer' }).click();

      await page.getByRole('button', { name: 'Clôturer le ticket' }).click();
      const wizard = page.getByRole('dialog', { name: 'Clôturer le ticket' });
      await wizard.getByRole('heading', { name: 'Étape 1 sur 3 : Arrivée sur site' }).waitFor();
      await wizard.getByRole('radio', { name: 'En service', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await wizard.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' }).waitFor();
      await wizard.getByLabel('Constat du technicien').fill('Contrôle périodique effectué, aucun défaut.');
      await wizard.getByRole('radio', { name: 'Fonctionnel', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du client' }));
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du technicien' }));
      await expect.poll(() => wizard.getByText('Signé', { exact: true }).count()).toBe(2);
      await wizard.getByRole('button', { name: 'Valider la clôture' }).click();

      await wizard.getByText(`Le ticket ${ticket!.num_chrono} est clos.`).waitFor({ timeout: 30_000 });
      const link = wizard.getByRole('link', { name: 'Télécharger le rapport' });
      await link.waitFor({ timeout: 60_000 });
      const pdfResponse = await techContext.request.get((await link.getAttribute('href')) ?? '');
      expect(pdfResponse.status()).toBe(200);
      expect(pdfResponse.headers()['content-type']).toMatch(/application\/pdf/);
      const text = pdfText(await pdfResponse.body()).replace(/\s+/g, ' ');
      expect(text).toContain(marker);
      expect(text).toContain(ticket!.num_chrono);
    } catch (error) {
      await saveArtifacts('journey-7-report', pages);
      throw error;
    } finally {
      await techContext.close();
    }
  }, 240_000);
});
