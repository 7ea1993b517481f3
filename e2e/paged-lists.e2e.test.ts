import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { defaultClosedTicketsRange } from '@fsm/contracts';
import { launchBrowser, recordConsole, saveArtifactsOnTimeout, signedInContext, skipReason } from './support/browser.js';
import { DEMO_PASSWORD, startStack, type Stack } from './support/stack.js';

/*
 * Issue #19, web side: the long lists load page by page and draw only what is
 * on screen, under the true total. The journeys seed enough closed tickets
 * for three pages of the closed search (60 cards a page), through the
 * product's own routes as the demo seed does.
 */

const ADMIN = 'admin@demo.fr';
const SEEDED_CLOSED = 130;
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const DAY_MS = 86_400_000;

interface TicketRow {
  id: string;
  num_chrono: string;
  client_nom: string;
}
interface PageInfo {
  next_cursor: string | null;
  total: number;
}

/** yyyy-MM-dd of `daysAgo` days back (UTC is close enough to Paris for dates well inside the window). */
const dayBack = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/** The visible total, '8 172 tickets' with French thousands. */
const totalText = (n: number) => `${new Intl.NumberFormat('fr-FR').format(n)} ticket${n > 1 ? 's' : ''}`;

async function login(stack: Stack, email: string): Promise<{ token: string; id: string }> {
  const res = await fetch(`${stack.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, motdepasse: DEMO_PASSWORD }) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { token: body.token, id: body.user.id };
}

function api(stack: Stack, token: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...init.headers, 'content-type': 'application/json' };
    }
    const res = await fetch(`${stack.baseUrl}${path}`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/** Closed tickets spread over the last year: created, then closed after a visit, as a technician does. */
async function seedClosedTickets(stack: Stack, count: number): Promise<void> {
  const admin = await login(stack, ADMIN);
  const technicien = await login(stack, 'technicien@demo.fr');
  const call = api(stack, admin.token);
  const clients = await call<{ id: string }[]>('GET', '/api/clients');
  const installations: string[] = [];
  for (const client of clients) {
    const sites = await call<{ installations: { id: string }[] }[]>('GET', `/api/clients/${client.id}/sites`);
    for (const site of sites) installations.push(...site.installations.map((i) => i.id));
  }
  expect(installations.length).toBeGreaterThan(0);

  const one = async (i: number) => {
    const daysAgo = 20 + (i % 300);
    const form = new FormData();
    form.append('installation_id', installations[i % installations.length]!);
    form.append('nom', 'Durand');
    form.append('prenom', 'Alice');
    form.append('email', 'alice.durand@exemple.fr');
    form.append('telephone', '06 11 22 33 44');
    form.append('probleme', `Contrôle de la centrale n° ${i + 1}.`);
    form.append('date_enregistrement', dayBack(daysAgo));
    form.append('heure_enregistrement', '08:30');
    form.append('id_technicien', technicien.id);
    const created = await call<{ ticket_id: string }>('POST', '/api/tickets/manual/ticket-create', form);
    await call('PATCH', `/api/tickets/${created.ticket_id}/close`, {
      constat_tech: 'Essais concluants.',
      remarque_tech: '',
      devis: 0,
      etat_arrivee: 'En dérangement',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:20',
      arrive_at: `${dayBack(daysAgo)}T10:00`,
      date_cloture: `${dayBack(daysAgo)}T11:00`,
      signature_client: SIGNATURE,
      signature_technicien: SIGNATURE,
    });
  };
  for (let start = 0; start < count; start += 8) {
    await Promise.all(Array.from({ length: Math.min(8, count - start) }, (_, k) => one(start + k)));
  }
}

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('issue #19: paged, virtualised lists', () => {
  let stack: Stack;
  let browser: Browser;
  let call: ReturnType<typeof api>;

  beforeAll(async () => {
    stack = await startStack('paged_lists');
    browser = await launchBrowser();
    await seedClosedTickets(stack, SEEDED_CLOSED);
    call = api(stack, (await login(stack, ADMIN)).token);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('scrolls a year of closed tickets past the first page and opens a ticket of the second page', async () => {
    const context = await signedInContext(browser, stack.baseUrl, ADMIN);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('paged-closed-search', [{ page, console: consoleLines }]);

    const from = dayBack(365);
    const to = dayBack(0);
    const query = `date_debut=${from}&date_fin=${to}&limit=60`;
    const first = await call<PageInfo & { tickets: TicketRow[] }>('GET', `/api/tickets/clos?${query}`);
    expect(first.total).toBeGreaterThanOrEqual(SEEDED_CLOSED);
    expect(first.next_cursor).not.toBeNull();
    const second = await call<PageInfo & { tickets: TicketRow[] }>('GET', `/api/tickets/clos?${query}&cursor=${first.next_cursor}`);
    const target = second.tickets[10]!;

    await page.goto('/tickets?statut=clos');
    await page.getByRole('heading', { level: 1, name: 'Tickets Clos' }).waitFor();
    await page.getByRole('button', { name: 'Filtres' }).click();
    await page.getByLabel('Demandé à partir du').fill(from);
    await page.getByLabel('Jusqu’au').fill(to);

    // The true total at once, while only the first page is loaded and a few cards drawn.
    await page.getByRole('status').filter({ hasText: totalText(first.total) }).waitFor();
    expect(await page.locator('article').count()).toBeLessThan(60);

    // Scroll until the second page's ticket is drawn.
    const link = page.getByRole('link', { name: `${target.client_nom} ${target.num_chrono}` });
    for (let i = 0; i < 80 && !(await link.isVisible()); i += 1) {
      await page.mouse.wheel(0, 1500);
      await page.waitForTimeout(100);
    }
    await expect.poll(() => link.isVisible()).toBe(true);
    // Still only what is on screen, whatever has been loaded.
    expect(await page.locator('article').count()).toBeLessThan(60);
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(nodes).toBeLessThan(5000);

    await link.click();
    await page.waitForURL(`**/tickets/${target.id}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(target.num_chrono) }).waitFor();
    await context.close();
  }, 120_000);

  it('shows the totals and chip counts the API gives', async () => {
    const context = await signedInContext(browser, stack.baseUrl, ADMIN);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('paged-totals', [{ page, console: consoleLines }]);

    const open = await call<PageInfo & { counts: Record<'tout' | 'urgents' | 'ouverts' | 'en_cours' | 'interventions', number> }>(
      'GET',
      '/api/tickets?limit=1',
    );
    await page.goto('/tickets');
    await page.getByRole('heading', { level: 1, name: 'Tickets Ouverts' }).waitFor();
    await page.getByRole('status').filter({ hasText: totalText(open.total) }).waitFor();
    const chips = page.getByRole('group', { name: 'Filtrer les tickets' });
    const chipCount = async (name: string) => (await chips.getByRole('button', { name: new RegExp(`^${name}`) }).locator('.filter-chip__count').textContent())?.trim();
    const format = (n: number) => new Intl.NumberFormat('fr-FR').format(n);
    expect(await chipCount('Tout')).toBe(format(open.counts.tout));
    expect(await chipCount('Urgents')).toBe(format(open.counts.urgents));
    expect(await chipCount('Ouverts')).toBe(format(open.counts.ouverts));
    expect(await chipCount('En cours')).toBe(format(open.counts.en_cours));
    expect(await chipCount('Interventions')).toBe(format(open.counts.interventions));

    // A chip asks the server: its total is the chip's count.
    await chips.getByRole('button', { name: /^En cours/ }).click();
    await page.getByRole('status').filter({ hasText: totalText(open.counts.en_cours) }).waitFor();

    // The closed search of the last 30 days (the default) and the statistics table.
    const range = defaultClosedTicketsRange(new Date());
    const closed = await call<PageInfo>('GET', `/api/tickets/clos?date_debut=${range.date_debut}&date_fin=${range.date_fin}&limit=1`);
    await page.getByRole('button', { name: 'Voir les tickets clos' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tickets Clos' }).waitFor();
    expect(closed.total).toBeGreaterThan(0);
    await page.getByRole('status').filter({ hasText: totalText(closed.total) }).waitFor();

    await page.goto('/stats');
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await page.getByLabel('Du', { exact: true }).fill(dayBack(365));
    await page.getByRole('button', { name: 'Appliquer' }).click();
    const from = await page.getByLabel('Du', { exact: true }).inputValue();
    const to = await page.getByLabel('Au', { exact: true }).inputValue();
    const stats = await call<PageInfo>('GET', `/api/stats/tickets?from=${from}&to=${to}&limit=1`);
    expect(stats.total).toBeGreaterThanOrEqual(SEEDED_CLOSED);
    await page.getByRole('status').filter({ hasText: totalText(stats.total) }).waitFor();
    expect(await page.locator('tbody tr').count()).toBeLessThan(100);
    await context.close();
  }, 120_000);
});
