import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { PASSWORD_MESSAGES } from '@fsm/contracts';
import { launchBrowser, logInWithForm, newContext, recordConsole, saveArtifacts, skipReason } from './support/browser.js';
import { DEMO_PASSWORD, startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 9: changing one’s password', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('password');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows each of the spec’s error messages, then succeeds and the new password logs in', async () => {
    const email = 'technicien@demo.fr';
    const [user] = await stack.query<{ prenom: string; nom: string }>(`SELECT prenom, nom FROM rm.users WHERE lower(email) = $1`, [email]);
    expect(user).toBeTruthy();
    const newPassword = 'Nouveau-2026!';

    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    try {
      await logInWithForm(page, email);
      const menu = page.getByRole('button', { name: `${user!.prenom} ${user!.nom}` });
      await menu.click();
      const dialog = page.getByRole('dialog', { name: 'Changer mon mot de passe' });
      await dialog.waitFor();
      const oldField = dialog.getByLabel('Ancien mot de passe');
      const newField = dialog.getByLabel('Nouveau mot de passe', { exact: true });
      const confirmField = dialog.getByLabel('Confirmation du nouveau mot de passe');
      const submit = dialog.getByRole('button', { name: 'Valider' });
      const alert = dialog.getByRole('alert');
      const attempt = async (values: { old: string; next: string; confirm: string }) => {
        await oldField.fill(values.old);
        await newField.fill(values.next);
        await confirmField.fill(values.confirm);
        await submit.click();
      };
      const shows = async (locator: Locator, text: string) => {
        await locator.filter({ hasText: text }).waitFor();
        expect((await locator.textContent())?.trim()).toBe(text);
      };

      await attempt({ old: DEMO_PASSWORD, next: newPassword, confirm: '' });
      await shows(alert, PASSWORD_MESSAGES.allFieldsRequired);
      expect(PASSWORD_MESSAGES.allFieldsRequired).toBe('Tous les champs sont obligatoires.');

      for (const weak of ['court-1', 'sanschiffre!', '12345678!', 'Alphanum123']) {
        await attempt({ old: DEMO_PASSWORD, next: weak, confirm: weak });
        await shows(alert, PASSWORD_MESSAGES.criteriaNotMet);
      }
      expect(PASSWORD_MESSAGES.criteriaNotMet).toBe('Le mot de passe ne respecte pas tous les critères.');

      await attempt({ old: DEMO_PASSWORD, next: newPassword, confirm: 'Nouveau-2027!' });
      await shows(alert, PASSWORD_MESSAGES.confirmationMismatch);
      expect(PASSWORD_MESSAGES.confirmationMismatch).toBe('La confirmation ne correspond pas.');

      // The server checks the old password (message not in the spec, see contracts).
      await attempt({ old: 'Mauvais-2026!', next: newPassword, confirm: newPassword });
      await shows(alert, PASSWORD_MESSAGES.wrongOldPassword);

      await attempt({ old: DEMO_PASSWORD, next: newPassword, confirm: newPassword });
      await shows(dialog.getByRole('status'), PASSWORD_MESSAGES.success);
      expect(PASSWORD_MESSAGES.success).toBe('Mot de passe modifié avec succès.');
      await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    } catch (error) {
      await saveArtifacts('journey-9', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }

    // A fresh visit: the old password is refused, the new one opens the app.
    const again = await newContext(browser, stack.baseUrl);
    const page2 = await again.newPage();
    const console2 = recordConsole(page2);
    try {
      await logInWithForm(page2, email, DEMO_PASSWORD);
      await page2.getByRole('alert').waitFor();
      expect(page2.url()).toContain('/login');
      await page2.getByLabel('Mot de passe').fill(newPassword);
      await page2.getByRole('button', { name: 'Se connecter' }).click();
      await page2.getByRole('button', { name: `${user!.prenom} ${user!.nom}` }).waitFor();
      expect(page2.url()).not.toContain('/login');
    } catch (error) {
      await saveArtifacts('journey-9-relogin', [{ page: page2, console: console2 }]);
      throw error;
    } finally {
      await again.close();
    }
  });
});
