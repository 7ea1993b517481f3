import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { launchBrowser, logInWithForm, newContext, recordConsole, saveArtifacts, saveArtifactsOnTimeout, skipReason } from './support/browser.js';
import { startStack, type Stack } from './support/stack.js';

const BOM = '\uFEFF';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 6: an agency admin sets up a client and prints QR codes', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('client_setup');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('creates a client, a site and an installation, generates and exports 5 QR codes; another agency cannot see the client', async () => {
    const suffix = Date.now().toString(36);
    const clientNom = `Entrepôts Rhodaniens ${suffix}`;
    const siteNom = `Plateforme Corbas ${suffix}`;
    const installationNom = `SSI catégorie B ${suffix}`;

    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    const pages: Array<{ page: Page; console: string[] }> = [{ page, console: consoleLines }];
    saveArtifactsOnTimeout('journey-6', pages);
    try {
      await logInWithForm(page, 'admin@demo.fr');
      await page.getByRole('heading', { level: 1, name: 'Résumé des tickets' }).waitFor();

      // --- /clients: client, then site, then installation, each through its modal.
      await page.getByRole('button', { name: 'Gestion' }).click();
      await page.getByRole('menuitem', { name: 'Clients' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
      await page.getByRole('button', { name: '+ Ajouter un client' }).click();
      const clientDialog = page.getByRole('dialog', { name: 'Ajouter un client' });
      await clientDialog.getByLabel('Nom').fill(clientNom);
      await clientDialog.getByLabel('Adresse').fill('14 rue des Frères Lumière');
      await clientDialog.getByLabel('Code postal').fill('69960');
      await clientDialog.getByLabel('Ville').fill('Corbas');
      await expectNoSeriousA11yViolations(page, 'Ajouter un client');
      await clientDialog.getByRole('button', { name: 'Enregistrer' }).click();
      await clientDialog.waitFor({ state: 'detached' });

      const clients = page.getByRole('table', { name: 'Liste des clients' });
      await page.getByRole('searchbox', { name: 'Rechercher un client' }).fill(suffix);
      const clientButton = clients.getByRole('button', { name: clientNom, exact: true });
      await clientButton.click();
      const detail = page.getByRole('region', { name: `Sites et installations de ${clientNom}` });
      await detail.getByText('Aucun site pour ce client.').waitFor();

      await detail.getByRole('button', { name: '+ Ajouter un site' }).click();
      const siteDialog = page.getByRole('dialog', { name: 'Ajouter un site' });
      await siteDialog.getByLabel('Nom').fill(siteNom);
      await siteDialog.getByLabel('Adresse').fill('2 avenue du Progrès');
      await siteDialog.getByLabel('Code postal').fill('69960');
      await siteDialog.getByLabel('Ville').fill('Corbas');
      await siteDialog.getByRole('button', { name: 'Enregistrer' }).click();
      await siteDialog.waitFor({ state: 'detached' });
      await detail.getByRole('button', { name: new RegExp(`^${siteNom}`) }).click();

      await detail.getByRole('button', { name: '+ Ajouter une installation' }).click();
      const installationDialog = page.getByRole('dialog', { name: 'Ajouter une installation' });
      await installationDialog.getByLabel('Nom').fill(installationNom);
      const metier = installationDialog.getByRole('combobox', { name: /Métier/ });
      await metier.locator('option').nth(1).waitFor({ state: 'attached' });
      await metier.selectOption({ index: 1 });
      await installationDialog.getByLabel('Description').fill('Centrale 4 boucles, 120 détecteurs optiques');
      await installationDialog.getByLabel("Délai d'intervention (h)").fill('6');
      await installationDialog.getByRole('button', { name: 'Enregistrer' }).click();
      await installationDialog.waitFor({ state: 'detached' });
      const installation = detail.getByRole('listitem').filter({ hasText: installationNom });
      await installation.getByText('Dépannage sous 6h').waitFor();
      await expectNoSeriousA11yViolations(page, 'Clients (nouveau client, site et installation)');

      // --- /qrcodes: a batch of 5, then the export.
      await page.getByRole('button', { name: 'Gestion' }).click();
      await page.getByRole('menuitem', { name: 'QR Codes' }).click();
      await page.getByRole('heading', { level: 1, name: 'QR Codes' }).waitFor();
      const counter = page.getByText(/^QR codes non utilisés/);
      await expect.poll(() => counter.textContent()).toMatch(/\d/);
      const unusedBefore = Number((await counter.textContent())!.replace(/\D/g, ''));
      expect(await page.getByLabel('Nombre de QR codes').inputValue()).toBe('5');
      await page.getByRole('button', { name: 'Générer' }).click();
      await page.getByRole('button', { name: 'Dernier lot (5)' }).waitFor();
      await expect.poll(() => counter.textContent()).toContain(String(unusedBefore + 5));
      const labels = page.getByRole('list', { name: 'Planche 1' }).getByRole('listitem');
      await expect.poll(() => labels.count()).toBe(5);
      // Each label shows the first 8 characters of its key under 'Scannez pour signaler une panne'.
      const shownKeys = (await labels.allTextContents()).map((text) => /([0-9A-Za-z_-]{8})\s*$/.exec(text.trim())?.[1]);
      expect(shownKeys.every(Boolean), shownKeys.join(', ')).toBe(true);
      expect(new Set(shownKeys).size).toBe(5);
      await expectNoSeriousA11yViolations(page, 'QR Codes (lot généré)');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^qrcodes_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile((await download.path())!, 'utf8');
      const lines = csv.replace(BOM, '').trim().split(/\r?\n/);
      expect(lines[0]).toBe('Clé;URL;Installation;Site;Client');
      const rows = lines.slice(1);
      // Every code of the agency, one a line; the new batch, not yet on an installation, among them.
      expect(rows.length).toBeGreaterThanOrEqual(unusedBefore + 5);
      for (const key of shownKeys) {
        // A key starting with '-' gets the CSV formula guard (a leading apostrophe), like any cell.
        const row = rows.filter((r) => r.replace(/^'/, '').startsWith(key!));
        expect(row, `une ligne pour ${key}`).toHaveLength(1);
        expect(row[0]).toContain(`${stack.baseUrl}/ticket?key=${key}`);
        expect(row[0], 'pas encore posé sur une installation').toMatch(/;;;$/);
      }
    } catch (error) {
      await saveArtifacts('journey-6', pages);
      throw error;
    }

    // --- Another agency's admin, in a second context, cannot see the client.
    const other = await newContext(browser, stack.baseUrl);
    const otherPage = await other.newPage();
    const otherConsole = recordConsole(otherPage);
    pages.push({ page: otherPage, console: otherConsole });
    try {
      await logInWithForm(otherPage, 'admin.villeurbanne@demo.fr');
      await otherPage.getByRole('heading', { level: 1, name: 'Résumé des tickets' }).waitFor();
      await otherPage.goto('/clients');
      const list = otherPage.getByRole('table', { name: 'Liste des clients' });
      await list.locator('tbody[aria-busy]').waitFor({ state: 'detached' });
      await expect.poll(() => list.getByRole('rowheader').allTextContents()).not.toContain(clientNom);
      await otherPage.getByRole('searchbox', { name: 'Rechercher un client' }).fill(clientNom);
      await list.getByText('Aucun client ne correspond à la recherche.').waitFor();
      expect(await list.getByRole('button', { name: clientNom }).count()).toBe(0);
    } catch (error) {
      await saveArtifacts('journey-6', pages);
      throw error;
    } finally {
      await other.close();
      await context.close();
    }
  }, 240_000);
});
