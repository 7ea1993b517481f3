import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { pdfText } from '@fsm/workers/test-support';
import { drawSignature } from './support/signature.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 2: a technician closes a ticket', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('close_ticket');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('takes it in charge, walks the wizard with both signatures, gets the PDF and the e-mail, and e-mails the report again from the detail', async () => {
    const [tech] = await stack.query<{ id: string; agence_id: string }>(`SELECT id, agence_id FROM rm.users WHERE lower(email) = 'technicien@demo.fr'`);
    expect(tech).toBeTruthy();
    const [ticket] = await stack.query<{ id: string; num_chrono: string; demandeur_email: string }>(
      `SELECT id, num_chrono, demandeur_email FROM rm.tickets
        WHERE statut = 'ouvert' AND agence_id = $1 AND demandeur_email <> ''
        ORDER BY created_at LIMIT 1`,
      [tech!.agence_id],
    );
    expect(ticket, 'an open seeded ticket in the technician’s agency').toBeTruthy();
    const constat = `Détecteur de fumée remplacé ${Date.now()}`;

    const context = await signedInContext(browser, stack.baseUrl, 'technicien@demo.fr');
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
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
      await wizard.getByRole('radio', { name: 'Hors service', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();

      await wizard.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' }).waitFor();
      await wizard.getByLabel('Constat du technicien').fill(constat);
      await wizard.getByRole('radio', { name: 'Fonctionnel', exact: true }).check();
      await wizard.getByRole('checkbox', { name: 'Un devis est à établir' }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();

      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du client' }));
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du technicien' }));
      await expect.poll(() => wizard.getByText('Signé', { exact: true }).count()).toBe(2);
      // Issue 18: the client's signer defaults to the requester; here someone else signs, in their role.
      const signer = wizard.getByRole('textbox', { name: 'Nom du signataire (client)' });
      expect(await signer.inputValue()).not.toBe('');
      await signer.fill('Marc Petit');
      await wizard.getByRole('textbox', { name: 'Qualité du signataire' }).fill('Responsable sécurité');
      const demandeur = wizard.getByRole('group', { name: 'Envoyer le rapport à' }).getByRole('checkbox').first();
      if (!(await demandeur.isChecked())) await demandeur.check();
      await wizard.getByRole('button', { name: 'Valider la clôture' }).click();

      await wizard.getByText(`Le ticket ${ticket!.num_chrono} est clos.`).waitFor({ timeout: 20_000 });
      const link = wizard.getByRole('link', { name: 'Télécharger le rapport' });
      await link.waitFor({ timeout: 60_000 });
      // The browser link carries a download token bound to the file (never the session token: issue 17).
      expect(await link.getAttribute('href')).toContain('token=');
      await wizard.getByText(`Rapport envoyé à ${ticket!.demandeur_email}`, { exact: false }).waitFor({ timeout: 60_000 });
      await wizard.getByRole('button', { name: 'Fermer' }).first().click();
      await wizard.waitFor({ state: 'detached' });
      const summaryLink = page.getByRole('complementary', { name: 'Résumé et actions' }).getByRole('link', { name: 'Télécharger le rapport' });
      await summaryLink.waitFor({ timeout: 30_000 });
      // The link opens in a new tab (target=_blank); the PDF comes as a download there or inline.
      const [popup] = await Promise.all([context.waitForEvent('page'), summaryLink.click()]);
      const pdfResponse = await context.request.get((await summaryLink.getAttribute('href')) ?? '');
      expect(pdfResponse.status()).toBe(200);
      expect(pdfResponse.headers()['content-type']).toMatch(/application\/pdf/);
      await popup.close().catch(() => undefined);
      const pdf = await pdfResponse.body();
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(pdf).replace(/\s+/g, ' ');
      expect(text).toContain(ticket!.num_chrono);
      expect(text).toContain(constat);
      expect(text).toContain('Signé par : Marc Petit');
      expect(text).toContain('Qualité : Responsable sécurité');
      expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);

      await expect.poll(() => stack.smtp.mails.length, { timeout: 60_000 }).toBeGreaterThan(0);
      const mail = stack.smtp.mails.find((m) => m.to.includes(ticket!.demandeur_email));
      expect(mail, `an e-mail to ${ticket!.demandeur_email}`).toBeTruthy();
      expect(mail!.raw).toMatch(/application\/pdf/i);

      // Issue 18: the detail says who got the report, and sends it again to someone else.
      const closing = page
        .getByRole('region', { name: 'Historique des interventions' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: /^Télécharger le rapport \(/ }) });
      await closing.getByText(new RegExp(`^Envoyé à .*\\(${ticket!.demandeur_email.replace(/[.+]/g, '\\$&')}\\) le `)).waitFor({ timeout: 30_000 });
      await closing.getByRole('button', { name: 'Envoyer le rapport par e-mail' }).click();
      const send = page.getByRole('dialog', { name: 'Envoyer le rapport par e-mail' });
      const recipients = send.getByRole('textbox', { name: 'Destinataires' });
      expect(await recipients.inputValue()).toBe(ticket!.demandeur_email);
      await recipients.fill('secretariat@example.fr');
      await send.getByRole('button', { name: 'Envoyer' }).click();
      await send.waitFor({ state: 'detached' });
      // Pending, then sent: the live update of the report stream refetches the detail's reports.
      await closing.getByText(/(Envoi en cours à|Envoyé à) secretariat@example\.fr/).waitFor({ timeout: 30_000 });
      await closing.getByText(/^Envoyé à secretariat@example\.fr le /).waitFor({ timeout: 60_000 });
      await expect.poll(() => stack.smtp.mails.some((m) => m.to.includes('secretariat@example.fr') && /application\/pdf/i.test(m.raw)), { timeout: 30_000 }).toBe(true);
    } catch (error) {
      await saveArtifacts('journey-2', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});
