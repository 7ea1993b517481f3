// Screenshots of every screen at desktop and phone width, against a running app
// with the demo data: `node scripts/screenshots.mjs [baseUrl] [outDir]`.
// Uses Debian's chromium through playwright-core (never a downloaded browser).
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import pg from 'pg';

const base = process.argv[2] ?? 'http://localhost:3000';
const out = process.argv[3] ?? 'docs/screens';
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Demo-2026!';

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const one = async (sql) => (await db.query(sql)).rows[0] ?? {};
const { key } = await one(`SELECT qr_key AS key FROM rm.qrcodes WHERE installation_id IS NOT NULL ORDER BY generated_at LIMIT 1`);
const { id: openId } = await one(`SELECT id FROM rm.tickets WHERE statut = 'en_cours' ORDER BY created_at LIMIT 1`);
const { id: closedId } = await one(`SELECT id FROM rm.tickets WHERE statut = 'clos' AND devis = 1 ORDER BY created_at LIMIT 1`);
await db.end();

const screens = [
  { name: 'login', path: '/login', as: null },
  { name: 'home', path: '/dashboard', as: 'admin@demo.fr' },
  { name: 'tickets-open', path: '/tickets', as: 'admin@demo.fr' },
  { name: 'tickets-closed', path: '/tickets?statut=clos', as: 'admin@demo.fr' },
  // Issue 32: the board on its « En retard » chip, late cards saying how late, most late first.
  { name: 'tickets-late', path: '/tickets?en_retard=1', as: 'admin@demo.fr' },
  { name: 'ticket-detail', path: `/tickets/${openId}`, as: 'technicien@demo.fr' },
  { name: 'ticket-detail-closed', path: `/tickets/${closedId}`, as: 'admin@demo.fr' },
  { name: 'public-form', path: `/ticket?key=${key}`, as: null },
  { name: 'public-invalid-link', path: '/ticket', as: null },
  // Issue 32, item 6: a key that leads nowhere says so at once, before anything is typed.
  { name: 'public-unknown-key', path: '/ticket?key=NOPE1234', as: null },
  { name: 'telesurveillance-form', path: '/telesurv/ticket', as: 'telesurveillance@demo.fr' },
  { name: 'clients', path: '/clients', as: 'admin_plus@demo.fr' },
  { name: 'qrcodes', path: '/qrcodes', as: 'admin_plus@demo.fr' },
  { name: 'agences', path: '/agences', as: 'admin_plus@demo.fr' },
  {
    name: 'agence-form',
    path: '/agences',
    as: 'admin_plus@demo.fr',
    // The edit dialog with its opening hours, one day set to 07:30–19:00 without a break.
    action: async (page) => {
      await page.getByRole('button', { name: /^Modifier / }).first().click();
      const dialog = page.getByRole('dialog', { name: "Modifier l'agence" });
      await dialog.getByLabel('Mardi matin, ouverture').fill('07:30');
      await dialog.getByLabel('Mardi matin, fermeture').fill('19:00');
      await dialog.getByRole('checkbox', { name: 'Mardi après-midi' }).uncheck();
    },
  },
  { name: 'users', path: '/users', as: 'admin_plus@demo.fr' },
  { name: 'telesurv-accounts', path: '/telesurv', as: 'admin_plus@demo.fr' },
  { name: 'metiers', path: '/metiers', as: 'admin_plus@demo.fr' },
  { name: 'stats', path: '/stats', as: 'admin_plus@demo.fr' },
  { name: 'template-builder', path: '/template-builder', as: 'admin_plus@demo.fr' },
  {
    name: 'template-preview',
    path: '/template-builder',
    as: 'admin_plus@demo.fr',
    // The real PDF rendered by the workers, in Chromium's PDF viewer.
    action: async (page) => {
      await page.getByRole('button', { name: 'Preview A4' }).click();
      await page.getByTitle('Aperçu A4 du modèle').waitFor({ timeout: 30_000 });
      await page.waitForTimeout(4000);
    },
  },
];
// ONLY=template-preview,stats takes a subset.
const only = process.env.ONLY?.split(',').filter(Boolean);

const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--lang=fr-FR', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
await mkdir(out, { recursive: true });
const sessions = new Map();
async function sessionFor(email) {
  if (!sessions.has(email)) {
    const res = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, motdepasse: PASSWORD }) });
    sessions.set(email, await res.json());
  }
  return sessions.get(email);
}
for (const [device, viewport] of Object.entries(viewports)) {
  for (const screen of screens) {
    if (only && !only.includes(screen.name)) continue;
    const context = await browser.newContext({ viewport, locale: 'fr-FR', timezoneId: 'Europe/Paris', deviceScaleFactor: 1, isMobile: device === 'phone', hasTouch: device === 'phone' });
    if (screen.as) {
      const { token, user } = await sessionFor(screen.as);
      await context.addInitScript(([t, u]) => {
        localStorage.setItem('token', t);
        localStorage.setItem('user', u);
      }, [token, JSON.stringify(user)]);
    }
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}${screen.path}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(600);
    if (screen.action) await screen.action(page);
    await page.screenshot({ path: `${out}/${screen.name}-${device}.png`, fullPage: device === 'desktop' });
    console.log(`${screen.name}-${device}${errors.length ? `  errors: ${errors.join(' | ')}` : ''}`);
    await context.close();
  }
}
await browser.close();
