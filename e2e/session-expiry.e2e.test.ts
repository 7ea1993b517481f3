import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { launchBrowser, logInWithForm, newContext, recordConsole, saveArtifacts, saveArtifactsOnTimeout, skipReason } from './support/browser.js';
import { DEMO_PASSWORD, startStack, type Stack } from './support/stack.js';

/** What the login screen says after the server refused the token (tickets spec §7: 'Session expirée'). */
const SESSION_EXPIRED_TEXT = 'Session expirée. Merci de vous reconnecter.';

async function apiLogin(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<{ token: string; user: { id: string } }> {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, motdepasse: password }) });
  expect(res.status, `login ${email}`).toBe(200);
  return (await res.json()) as { token: string; user: { id: string } };
}

/**
 * The user's next action after the revocation: opening a ticket from the
 * board. A live update may already have made the app call the server and
 * land on /login; then there is no next action to take.
 */
async function openFirstTicket(page: Page): Promise<void> {
  const login = page.getByRole('heading', { level: 1, name: 'Connexion' });
  const card = page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').first().getByRole('link').first();
  await card.click({ timeout: 20_000 }).catch(async (error: unknown) => {
    if (!(await login.isVisible())) throw error;
  });
}

async function expectSentToLogin(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor({ timeout: 30_000 });
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.getByText(SESSION_EXPIRED_TEXT).waitFor();
  // The session is really gone: a protected page sends back to the login.
  await page.goto('/tickets');
  await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');
}

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 10: a revoked session sends the user to /login, a network drop never does', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('session_expiry');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the password changed from another session revokes this one: the next action lands on /login with "Session expirée"', async () => {
    const email = 'technicien@demo.fr';
    const newPassword = 'Revoque-2026!';
    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('journey-10-password', [{ page, console: consoleLines }]);
    try {
      await logInWithForm(page, email);
      await page.getByRole('heading', { level: 1, name: 'Résumé des tickets' }).waitFor();
      await page.getByRole('link', { name: 'Tickets', exact: true }).click();
      await page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').first().waitFor();

      // Elsewhere (another device), the same user changes their password.
      const other = await apiLogin(stack.baseUrl, email);
      const change = await fetch(`${stack.baseUrl}/api/utilisateurs/change-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${other.token}` },
        body: JSON.stringify({ oldPassword: DEMO_PASSWORD, newPassword }),
      });
      expect(change.status).toBe(200);

      await openFirstTicket(page);
      await expectSentToLogin(page);
      await expectNoSeriousA11yViolations(page, 'Connexion (session expirée)');

      // The new password opens a fresh session, and the message is gone. The
      // login brings the user back to the page they asked for (/tickets), not home.
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Mot de passe').fill(newPassword);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tickets Ouverts' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/tickets');
      await openFirstTicket(page);
      await page.getByRole('heading', { level: 1, name: /^Ticket / }).waitFor();
    } catch (error) {
      await saveArtifacts('journey-10-password', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a network drop at submit never signs the user out: "Ajouter un ticket" says so, keeps what was typed, and sends it once back online', async () => {
    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('journey-10-offline', [{ page, console: consoleLines }]);
    try {
      await logInWithForm(page, 'admin@demo.fr');
      await page.getByRole('heading', { level: 1, name: 'Résumé des tickets' }).waitFor();
      await page.goto('/tickets');
      await page.getByRole('heading', { level: 1, name: 'Tickets Ouverts' }).waitFor();
      await page.getByRole('button', { name: '+ Ajouter un ticket' }).click();
      const form = page.getByRole('dialog', { name: 'Ajouter un ticket' });
      await form.getByRole('combobox', { name: 'Client' }).fill('Clinique');
      await form.getByRole('option', { name: /Clinique du Val de Saône/ }).click();
      const site = form.getByRole('combobox', { name: 'Site' });
      await site.locator('option', { hasText: 'Bâtiment principal' }).waitFor({ state: 'attached' });
      await site.selectOption({ label: 'Bâtiment principal (Lyon)' });
      await form.getByRole('combobox', { name: 'Installation' }).selectOption({ label: 'SSI catégorie A' });
      const typed = { Nom: 'Girard', Prénom: 'Hélène', Email: 'h.girard@clinique-valdesaone.fr', Téléphone: '0472851020', 'Problème constaté': 'Défaut boucle 3 hors connexion' };
      for (const [label, value] of Object.entries(typed)) await form.getByLabel(label, { exact: true }).fill(value);

      await context.setOffline(true);
      await form.getByRole('button', { name: 'Enregistrer le ticket' }).click();

      await form.getByRole('alert').filter({ hasText: 'Erreur lors de l’envoi du ticket.' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/tickets');
      expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
      for (const [label, value] of Object.entries(typed)) expect(await form.getByLabel(label, { exact: true }).inputValue()).toBe(value);

      await context.setOffline(false);
      await form.getByRole('button', { name: 'Enregistrer le ticket' }).click();
      await form.waitFor({ state: 'detached' });
      await page.getByRole('list', { name: 'Tickets' }).getByText('Défaut boucle 3 hors connexion').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/tickets');
    } catch (error) {
      await saveArtifacts('journey-10-offline', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 180_000);

  it('an account deleted by an admin: the next action lands on /login with "Session expirée"', async () => {
    const email = 'technicien_plus@demo.fr';
    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('journey-10-deleted', [{ page, console: consoleLines }]);
    try {
      await logInWithForm(page, email);
      await page.getByRole('heading', { level: 1, name: 'Résumé des tickets' }).waitFor();
      await page.getByRole('link', { name: 'Tickets', exact: true }).click();
      await page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').first().waitFor();

      const admin = await apiLogin(stack.baseUrl, 'admin_plus@demo.fr');
      const victim = await apiLogin(stack.baseUrl, email);
      const removed = await fetch(`${stack.baseUrl}/api/utilisateurs/${victim.user.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin.token}` } });
      expect(removed.ok, `DELETE ${removed.status}`).toBe(true);

      await openFirstTicket(page);
      await expectSentToLogin(page);
    } catch (error) {
      await saveArtifacts('journey-10-deleted', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 180_000);
});
