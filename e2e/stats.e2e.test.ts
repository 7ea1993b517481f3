import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { launchBrowser, recordConsole, saveArtifacts, saveArtifactsOnTimeout, signedInContext, skipReason } from './support/browser.js';
import { DEMO_PASSWORD, startStack, type Stack } from './support/stack.js';

/** Management spec §9, word for word: the columns of 'Exporter CSV', separated by ';'. */
const SPEC_CSV_HEADER =
  'Ticket ID;N° Chrono;Client;Site;Installation;Technicien;Créé le;Clôturé le;Respect délai intervention;Respect délai devis;Interventions';

interface StatsItem {
  id: string;
  num_chrono: string;
  created_at: string;
  sla_ok: boolean | null;
  devis_ok: boolean | null;
}

/** The expected gauge from the tickets' own flags: N/A left out, one decimal, objective reached or not (spec §4, §9). */
function expectedGauge(flags: Array<boolean | null>, objective: number) {
  const judged = flags.filter((flag): flag is boolean => flag !== null);
  const ok = judged.filter(Boolean).length;
  const pct = judged.length === 0 ? null : Math.round((ok / judged.length) * 1000) / 10;
  return { ok, judged: judged.length, pct, verdict: pct === null ? null : pct >= objective ? 'Atteint' : 'À améliorer' };
}

const frNumber = (text: string) => Number(text.replace(/\s/g, '').replace(',', '.'));

/** 'r,g,b' of a CSS colour: which of red or green dominates is what the user sees as the gauge's tone. */
async function tone(locator: Locator): Promise<'green' | 'red' | 'other'> {
  const colour = await locator.evaluate((el) => getComputedStyle(el).color);
  const [r = 0, g = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (g > r * 1.5) return 'green';
  if (r > g * 1.5) return 'red';
  return 'other';
}

// Skipped (with the reason printed by support/browser.ts) when no Chromium binary is installed.
describe.skipIf(skipReason !== null)('journey 8: statistics gauges and CSV export', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack('stats');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the gauges the seeded tickets give, and exports the CSV with the spec’s header', async () => {
    const email = 'admin@demo.fr';
    const context = await signedInContext(browser, stack.baseUrl, email);
    const page = await context.newPage();
    const consoleLines = recordConsole(page);
    saveArtifactsOnTimeout('journey-8', [{ page, console: consoleLines }]);
    try {
      await page.goto('/stats');
      await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
      const from = await page.getByLabel('Du', { exact: true }).inputValue();
      const to = await page.getByLabel('Au', { exact: true }).inputValue();
      expect(from).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      const login = await fetch(`${stack.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, motdepasse: DEMO_PASSWORD }) });
      const { token } = (await login.json()) as { token: string };
      /** The seeded tickets of a window, in the user's scope, with their per-ticket flags. */
      const itemsOf = async (window: { from: string; to: string }) => {
        const res = await fetch(`${stack.baseUrl}/api/stats/tickets?from=${window.from}&to=${window.to}`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        return ((await res.json()) as { items: StatsItem[] }).items;
      };
      const verdictsSeen = new Set<string>();

      /** The two gauges and the table show what the tickets of the applied window give. */
      const expectGauges = async (items: StatsItem[]) => {
        const sla = expectedGauge(items.map((i) => i.sla_ok), 90);
        const devis = expectedGauge(items.map((i) => i.devis_ok), 100);
        expect(sla.pct, 'some tickets are judged on the intervention delay').not.toBeNull();
        expect(devis.pct, 'some tickets are judged on the quote delay').not.toBeNull();
        const gauges = [
          { title: "Respect du délai d'intervention", expected: sla, unit: 'tickets dans les délais' },
          { title: 'Devis envoyés sous 5 jours', expected: devis, unit: 'devis dans les délais' },
        ];
        for (const { title, expected, unit } of gauges) {
          const gauge = page.getByRole('article', { name: title });
          const meter = gauge.getByRole('meter', { name: title });
          await gauge.getByText(`${expected.ok} / ${expected.judged} ${unit}`).waitFor({ timeout: 30_000 });
          const shown = (await meter.textContent())!.trim();
          expect(shown, title).toMatch(/^[\d\s,]+\s%$/);
          expect(frNumber(shown.replace('%', '')), title).toBe(expected.pct);
          const verdict = gauge.getByText(expected.verdict!, { exact: true });
          await verdict.waitFor();
          verdictsSeen.add(expected.verdict!);
          // Polled like the figures above: read once, right as the filters change, the colour
          // was once seen still green under 'À améliorer' in CI (the screenshot taken just
          // after showed it red). What the user sees once the screen settles is what counts.
          await expect.poll(() => tone(verdict), { message: `${title}: ${expected.verdict}` }).toBe(expected.verdict === 'Atteint' ? 'green' : 'red');
          const other = expected.verdict === 'Atteint' ? 'À améliorer' : 'Atteint';
          expect(await gauge.getByText(other, { exact: true }).count()).toBe(0);
        }
        // The table draws the rows on screen only (issue #19); it says how many it has in all.
        const table = page.getByRole('table', { name: 'Détail des tickets' });
        await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(items.length + 1));
        await page.getByRole('status').filter({ hasText: `${items.length} ticket${items.length > 1 ? 's' : ''}` }).waitFor();
        expect(await table.getByRole('rowheader').count()).toBeGreaterThan(0);
      };

      // The default window (the last 30 days): the whole demo set.
      const items = await itemsOf({ from, to });
      expect(items.length, 'the demo seed has tickets in the default window').toBeGreaterThan(0);
      await expectGauges(items);
      await expectNoSeriousA11yViolations(page, 'Statistiques');

      // One day whose ticket met both objectives, applied through the filters.
      const good = items.find((i) => i.sla_ok === true && i.devis_ok === true);
      expect(good, 'a seeded ticket on time for both the intervention and the quote').toBeTruthy();
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(good!.created_at));
      await page.getByLabel('Du', { exact: true }).fill(day);
      await page.getByLabel('Au', { exact: true }).fill(day);
      await page.getByRole('button', { name: 'Appliquer' }).click();
      const dayItems = await itemsOf({ from: day, to: day });
      expect(dayItems.map((i) => i.num_chrono)).toContain(good!.num_chrono);
      await expectGauges(dayItems);
      expect([...verdictsSeen].sort(), 'both verdicts were shown').toEqual(['Atteint', 'À améliorer']);

      // Back to the default window for the export.
      await page.getByLabel('Du', { exact: true }).fill(from);
      await page.getByLabel('Au', { exact: true }).fill(to);
      await page.getByRole('button', { name: 'Appliquer' }).click();
      await expectGauges(items);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^stats_tickets_\d{4}-\d{2}-\d{2}\.csv$/);
      const bytes = await readFile((await download.path())!);
      expect([...bytes.subarray(0, 3)], 'UTF-8 BOM').toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').split(/\r?\n/).filter((line) => line.length > 0);
      expect(lines[0]).toBe(SPEC_CSV_HEADER);
      expect(lines).toHaveLength(items.length + 1);
      for (const item of items) expect(lines.some((line) => line.includes(`;${item.num_chrono};`)), item.num_chrono).toBe(true);
    } catch (error) {
      await saveArtifacts('journey-8', [{ page, console: consoleLines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 180_000);
});
