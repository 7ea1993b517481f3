import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.1 A and AA, the level UI.md asks for ("colour contrast AA"). */
const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
const BLOCKING = new Set(['serious', 'critical']);

export interface A11yViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string; html: string; summary: string }>;
}

/** Readable report of axe violations: rule, impact, help, then each element and why. */
export function describeViolations(screenName: string, violations: readonly A11yViolation[]): string {
  const lines = [`${screenName} : ${violations.length} violation(s) d'accessibilité grave(s) ou critique(s)`];
  for (const v of violations) {
    lines.push(`- [${v.impact ?? '?'}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes.slice(0, 8)) {
      lines.push(`    ${node.target}`);
      lines.push(`      ${node.html.replace(/\s+/g, ' ').slice(0, 200)}`);
      if (node.summary) lines.push(`      ${node.summary.replace(/\s*\n\s*/g, ' | ').slice(0, 400)}`);
    }
    if (v.nodes.length > 8) lines.push(`    … et ${v.nodes.length - 8} autre(s)`);
  }
  return lines.join('\n');
}

export interface A11yCheckOptions {
  /**
   * Rules known to fail on this screen for a reason owned elsewhere, each
   * with that reason. They are printed as warnings, never silently dropped,
   * and do not fail the check.
   */
  knownIssues?: Readonly<Record<string, string>>;
}

/** The serious and critical WCAG 2.1 AA violations axe-core finds on the page as it is now. */
export async function seriousA11yViolations(page: Page, options: A11yCheckOptions = {}): Promise<A11yViolation[]> {
  const results = await new AxeBuilder({ page }).withTags([...A11Y_TAGS]).analyze();
  const known = options.knownIssues ?? {};
  if (process.env.A11Y_DEBUG) {
    for (const v of results.violations.filter((x) => !BLOCKING.has(x.impact ?? ''))) {
      console.log(`[a11y] (${v.impact}) ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ').slice(0, 300)}`);
    }
  }
  for (const v of results.violations) {
    const reason = known[v.id];
    if (reason && BLOCKING.has(v.impact ?? '')) console.warn(`[a11y] connu, non bloquant : ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')}) — ${reason}`);
  }
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? '') && !known[v.id])
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html, summary: n.failureSummary ?? '' })),
    }));
}

/**
 * Fails with a readable list when axe-core finds a serious or critical WCAG
 * 2.1 AA violation on the page as the user sees it now. Call it once the
 * screen has its content (wait for a heading or a row first), so skeletons
 * are not what gets checked.
 */
export async function expectNoSeriousA11yViolations(page: Page, screenName: string, options: A11yCheckOptions = {}): Promise<void> {
  const violations = await seriousA11yViolations(page, options);
  if (violations.length > 0) throw new Error(describeViolations(screenName, violations));
}
