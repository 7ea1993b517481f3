import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHOTO_MAX_BYTES, TICKET_MESSAGES } from '@fsm/contracts';
import { PHONE, launchBrowser, newContext, recordConsole, saveArtifacts, signedInContext, skipReason } from './support/browser.js';
import { bigBmp } from './support/images.js';
import { drawSignature } from './support/signature.js';
import { passCaptcha } from './support/captcha.js';
import { startStack, type Stack } from './support/stack.js';

/**
 * The one refusal expected today: browser-image-compression's worker imports
 * the library again from a CDN (jsdelivr). The policy blocks that third-party
 * script, the library falls back to compressing on the page, and the photo
 * still goes out under 8 MB (asserted below). Self-hosting that copy is
 * another issue's; then this list is empty.
 */
const KNOWN = [/cdn\.jsdelivr\.net\/npm\/browser-image-compression/];

/**
 * Issue 17: the product now answers with a strict Content-Security-Policy
 * (command-api/src/http/security-headers.ts). The built UI must run under it
 * untouched: the screens that lean on what the policy restricts are driven
 * here in Chromium while every CSP violation is collected — the page's own
 * report (`securitypolicyviolation`) and Chromium's console message — and
 * there must be none but the one KNOWN above. What each screen exercises: the public form’s
 * captcha (a worker from an object URL, injected styles) and its photo
 * compression (another worker), photos and QR codes (object URLs), signatures
 * (data URLs on a canvas), the rich-text editor (injected styles), the
 * template's Preview A4 (a PDF object URL in an iframe), charts, drag and drop,
 * and the live-update socket.
 */
describe.skipIf(skipReason !== null)('the built UI under the Content-Security-Policy', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('csp');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /**
   * Every violation: the page's own report (`securitypolicyviolation`), and
   * Chromium's log (also what workers are refused, which neither the page's
   * event nor Playwright's console events carry).
   */
  async function watch(context: BrowserContext): Promise<{ page: Page; console: string[]; violations: () => string[] }> {
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`[csp] ${event.effectiveDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`));
    });
    const page = await context.newPage();
    const lines = recordConsole(page);
    const cdp = await context.newCDPSession(page);
    cdp.on('Log.entryAdded', ({ entry }) => lines.push(`[chromium ${entry.source}] ${entry.text}`));
    await cdp.send('Log.enable');
    return {
      page,
      console: lines,
      violations: () => lines.filter((line) => (line.includes('[csp]') || /Content.Security.Policy/i.test(line)) && !KNOWN.some((known) => known.test(line))),
    };
  }

  it('answers the UI with the policy', async () => {
    const res = await fetch(`${stack.baseUrl}/tickets`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('public QR form from a phone: captcha, big photo compressed, sent — no violation', async () => {
    const [qr] = await stack.query<{ key: string }>(
      `SELECT q.qr_key AS key FROM rm.qrcodes q JOIN rm.installations i ON i.id = q.installation_id WHERE NOT i.deleted ORDER BY q.generated_at LIMIT 1`,
    );
    const context = await newContext(browser, stack.baseUrl, PHONE);
    const { page, console: lines, violations } = await watch(context);
    try {
      await page.goto(`/ticket?key=${encodeURIComponent(qr!.key)}`);
      await page.getByRole('heading', { name: 'Demande de dépannage' }).waitFor();
      await page.getByLabel('Nom', { exact: true }).fill('Martin');
      await page.getByLabel('Prénom').fill('Léa');
      await page.getByLabel('Email').fill('lea.martin@example.fr');
      await page.getByLabel('Téléphone').fill('0612345678');
      await page.getByLabel('Problème').fill('Détecteur en défaut (CSP)');
      await page.getByLabel('Photo (facultative)').setInputFiles({ name: 'panne.bmp', mimeType: 'image/bmp', buffer: bigBmp() });
      await page.getByRole('img', { name: 'Aperçu de la photo' }).waitFor({ timeout: 30_000 });
      await passCaptcha(page);
      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/public/'), { timeout: 30_000 });
      await page.getByRole('button', { name: 'Envoyer la demande' }).click();
      // Compressed all the same: the 9 MB photo went out under the limit.
      expect((await sent).postDataBuffer()?.length ?? 0).toBeLessThan(PHOTO_MAX_BYTES);
      await page.getByRole('status').filter({ hasText: TICKET_MESSAGES.publicSuccess }).waitFor({ timeout: 30_000 });
      expect(violations()).toEqual([]);
    } catch (error) {
      await saveArtifacts('csp-public', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('staff screens: tickets with photos, detail and signatures, stats, QR codes, métiers, template builder and Preview A4 — no violation', async () => {
    const [withPhoto] = await stack.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE photo_ref IS NOT NULL AND statut <> 'clos' ORDER BY created_at DESC LIMIT 1`);
    const [open] = await stack.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE statut = 'ouvert' ORDER BY created_at LIMIT 1`);
    const context = await signedInContext(browser, stack.baseUrl, 'admin_plus@demo.fr');
    const { page, console: lines, violations } = await watch(context);
    const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
    try {
      await page.goto('/');
      await h1('Résumé des tickets');
      await page.goto('/tickets');
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The photo sent from the phone in the previous test.
      expect(withPhoto).toBeTruthy();
      await page.goto(`/tickets/${withPhoto!.id}`);
      const photo = page.locator('img[src^="/api/files/"]').first();
      await photo.waitFor();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      await page.goto(`/tickets/${open!.id}`);
      await page.getByRole('button', { name: 'Prendre en charge' }).click();
      const take = page.getByRole('dialog', { name: 'Prendre en charge' });
      const technician = take.getByRole('combobox', { name: 'Technicien' });
      await technician.locator('option').nth(1).waitFor({ state: 'attached' });
      await technician.selectOption({ index: 1 });
      await take.getByRole('button', { name: 'Confirmer' }).click();
      await page.getByRole('button', { name: 'Clôturer le ticket' }).click();
      const wizard = page.getByRole('dialog', { name: 'Clôturer le ticket' });
      await wizard.getByRole('radio', { name: 'En service', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await wizard.getByLabel('Constat du technicien').fill('Contrôle sous la CSP');
      await wizard.getByRole('radio', { name: 'Fonctionnel', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du client' }));
      await drawSignature(page, wizard.getByRole('img', { name: 'Signature du technicien' }));
      await expect.poll(() => wizard.getByText('Signé', { exact: true }).count()).toBe(2);
      await page.keyboard.press('Escape');

      await page.goto('/stats');
      await h1('Statistiques');
      await page.getByRole('meter').first().waitFor({ timeout: 30_000 });

      await page.goto('/qrcodes');
      await h1('QR Codes');
      await page.getByRole('list', { name: 'Planche 1' }).getByRole('img').first().waitFor();

      await page.goto('/metiers');
      await h1('Métiers');
      await page.getByRole('button', { name: /^Modifier / }).first().waitFor();

      await page.goto('/telesurv');
      await h1('Comptes télésurveillance');

      await page.goto('/template-builder');
      await h1('Templates de documents');
      await page.getByRole('textbox', { name: 'Nom du modèle' }).and(page.locator(':not([value=""])')).waitFor();
      await page.getByRole('textbox', { name: 'Contenu du modèle' }).click();
      await page.keyboard.type(' Texte saisi sous la CSP.');
      await page.getByRole('button', { name: 'Preview A4' }).click();
      await page.getByTitle('Aperçu A4 du modèle').waitFor({ timeout: 30_000 });
      // The PDF framed from an object URL: loaded (or refused) by now.
      await expect.poll(() => page.frames().some((frame) => frame.url().startsWith('blob:'))).toBe(true);
      expect(violations()).toEqual([]);
    } catch (error) {
      await saveArtifacts('csp-staff', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('télésurveillance form — no violation', async () => {
    const context = await signedInContext(browser, stack.baseUrl, 'telesurveillance@demo.fr');
    const { page, console: lines, violations } = await watch(context);
    try {
      await page.goto('/telesurv/ticket');
      await page.getByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' }).waitFor();
      await page.getByRole('combobox', { name: /Agence/ }).locator('option').nth(1).waitFor({ state: 'attached' });
      expect(violations()).toEqual([]);
    } catch (error) {
      await saveArtifacts('csp-telesurv', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });
});
