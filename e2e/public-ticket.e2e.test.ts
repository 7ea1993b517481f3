import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHOTO_MAX_BYTES, TICKET_LABELS, TICKET_MESSAGES } from '@fsm/contracts';
import { PHONE, launchBrowser, newContext, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { bigBmp } from './support/images.js';
import { passCaptcha } from './support/captcha.js';
import { startStack, type Stack } from './support/stack.js';

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 1: a visitor reports a breakdown from a QR code', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('public_ticket');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('sends the form from a phone with a big photo, and the dispatcher board shows it without a reload', async () => {
    // A QR code stuck on an installation of admin@demo.fr's agency.
    const [qr] = await stack.query<{ key: string }>(
      `SELECT q.qr_key AS key FROM rm.qrcodes q
         JOIN rm.installations i ON i.id = q.installation_id
         JOIN rm.users u ON u.agence_id = i.agence_id AND lower(u.email) = 'admin@demo.fr'
        WHERE NOT i.deleted ORDER BY q.generated_at LIMIT 1`,
    );
    expect(qr, 'a seeded QR code assigned in admin@demo.fr agency').toBeTruthy();
    const probleme = `Alarme incendie en dérangement ${Date.now()}`;

    const boardContext = await signedInContext(browser, stack.baseUrl, 'admin@demo.fr');
    const board = await boardContext.newPage();
    const boardConsole = recordConsole(board);
    const phoneContext = await newContext(browser, stack.baseUrl, PHONE);
    const phone = await phoneContext.newPage();
    const phoneConsole = recordConsole(phone);
    // The compression library: once as the page's module, once as the worker's script (issue 18, item 6).
    const compressionFiles = new Set<string>();
    phoneContext.on('request', (r) => {
      if (/\/assets\/browser-image-compression-[^/]*\.js$/.test(new URL(r.url()).pathname)) compressionFiles.add(r.url());
    });
    try {
      await board.goto('/tickets');
      await board.getByRole('heading', { level: 1, name: TICKET_LABELS.openListTitle }).waitFor();
      expect(await board.getByText(probleme).count()).toBe(0);

      await phone.goto(`/ticket?key=${encodeURIComponent(qr!.key)}`);
      await phone.getByRole('heading', { name: 'Demande de dépannage' }).waitFor();
      await phone.getByLabel('Nom', { exact: true }).fill('Martin');
      await phone.getByLabel('Prénom').fill('Léa');
      await phone.getByLabel('Email').fill('lea.martin@example.fr');
      await phone.getByLabel('Téléphone').fill('0612345678');
      await phone.getByLabel('Problème').fill(probleme);

      const photo = bigBmp();
      expect(photo.length).toBeGreaterThan(PHOTO_MAX_BYTES);
      await phone.getByLabel('Photo (facultative)').setInputFiles({ name: 'panne.bmp', mimeType: 'image/bmp', buffer: photo });
      await phone.getByRole('img', { name: 'Aperçu de la photo' }).waitFor({ timeout: 30_000 });
      // Compressed in the worker, its script served by the app: no CDN (the browser set-up fails on
      // any other host) and nothing refused by the CSP.
      expect(compressionFiles.size).toBe(2);
      expect(phoneConsole.filter((line) => /Content Security Policy|importScripts/i.test(line))).toEqual([]);

      await passCaptcha(phone);
      const sent = phone.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/public/'), { timeout: 30_000 });
      await phone.getByRole('button', { name: 'Envoyer la demande' }).click();
      const request = await sent;
      // The photo went out re-encoded under the limit, not as the 9 MB original.
      expect(request.postDataBuffer()?.length ?? 0).toBeLessThan(PHOTO_MAX_BYTES);

      await phone.getByRole('status').filter({ hasText: TICKET_MESSAGES.publicSuccess }).waitFor({ timeout: 30_000 });
      expect(TICKET_MESSAGES.publicSuccess).toBe('Votre demande a bien été enregistrée. Un technicien prendra contact avec vous rapidement.');

      // The board received it live (no reload happened on this page).
      await board.getByText(probleme).waitFor({ timeout: 20_000 });
    } catch (error) {
      await saveArtifacts('journey-1', [
        { page: phone, console: phoneConsole },
        { page: board, console: boardConsole },
      ]);
      throw error;
    } finally {
      await phoneContext.close();
      await boardContext.close();
    }
  });
});
