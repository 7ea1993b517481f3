import type { Page } from 'playwright-core';

/**
 * Visible text that a user cannot read: clipped by a box too small for it,
 * printed over other text, or hidden under another element (issue 18, item 1:
 * a class defined twice squeezed checkbox labels into an 18-px column; axe
 * does not look at layout, so nothing caught it). Checked on the page as it
 * is now, within the open modal dialog when there is one (the page behind it
 * is covered on purpose).
 *
 * A control (button, link, field) is also a finding when another element
 * covers its centre at every position its scrolling boxes can take, as a
 * tap or a click there reaches the other element (issue 18: the clients
 * table's sticky first column over the row's 'Interlocuteurs' button, on a
 * phone). Sticky and fixed layers count here: covering controls is what they
 * must not do. The check scrolls as a browser does to bring a control into
 * view, then puts every scroll position back.
 *
 * What is not a finding: text cut with an ellipsis on purpose
 * (`text-overflow: ellipsis`, `-webkit-line-clamp`), text in a scrolling box
 * (the user scrolls to it), visually hidden text for screen readers, text
 * outside the viewport for the occlusion check (nothing can be measured
 * there).
 */
export interface LayoutProblem {
  kind: 'débordement de page' | 'texte coupé' | 'texte hors de son cadre' | 'textes superposés' | 'texte masqué' | 'commande recouverte';
  text: string;
  where: string;
  detail: string;
}

export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    // Runs in the browser: no imports, plain DOM.
    const TOLERANCE = 2;
    const problems: Array<{ kind: string; text: string; where: string; detail: string }> = [];
    const describe = (el: Element): string => {
      const parts: string[] = [];
      let cur: Element | null = el;
      while (cur && parts.length < 4 && cur !== document.body) {
        const cls = typeof cur.className === 'string' && cur.className.trim() ? `.${cur.className.trim().split(/\s+/).join('.')}` : '';
        parts.unshift(`${cur.tagName.toLowerCase()}${cur.id ? `#${cur.id}` : ''}${cls}`);
        cur = cur.parentElement;
      }
      return parts.join(' > ');
    };
    const short = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 80);

    const modal = [...document.querySelectorAll('[aria-modal="true"], dialog[open]')].filter((d) => (d as HTMLElement).offsetParent !== null || getComputedStyle(d).position === 'fixed').pop();
    const scope: Element = modal ?? document.body;

    const viewportWidth = document.documentElement.clientWidth;
    if (!modal && document.documentElement.scrollWidth > viewportWidth + TOLERANCE) {
      // Name what pokes out: an element wider than the screen whose parent is not.
      const culprits = [...document.body.querySelectorAll('*')]
        .filter((el) => el.getBoundingClientRect().right > viewportWidth + TOLERANCE && (el.parentElement?.getBoundingClientRect().right ?? 0) <= viewportWidth + TOLERANCE)
        .slice(0, 3);
      problems.push({
        kind: 'débordement de page',
        text: culprits.map((el) => short((el as HTMLElement).innerText ?? '')).join(' | '),
        where: culprits.map(describe).join(' ; ') || 'html',
        detail: `la page fait ${document.documentElement.scrollWidth} px de large pour ${viewportWidth} px d’écran`,
      });
    }

    /** Visually hidden on purpose (screen-reader text, 1-px boxes, clip). */
    const srOnly = (el: Element): boolean => {
      for (let cur: Element | null = el; cur && cur !== document.documentElement; cur = cur.parentElement) {
        const s = getComputedStyle(cur);
        const r = cur.getBoundingClientRect();
        if ((r.width <= 1 || r.height <= 1) && (s.overflow !== 'visible' || s.position === 'absolute')) return true;
        if (s.clip && s.clip !== 'auto') return true;
        if (s.clipPath && s.clipPath !== 'none' && s.clipPath.includes('inset(50%')) return true;
      }
      return false;
    };
    const invisible = (el: Element): boolean => {
      for (let cur: Element | null = el; cur; cur = cur.parentElement) {
        const s = getComputedStyle(cur);
        if (s.visibility === 'hidden' || s.opacity === '0' || s.display === 'none') return true;
      }
      return false;
    };
    /**
     * The layer an element floats in when it is drawn over the page by design
     * (a sticky header or column, a fixed bar, an open menu, a toast): text
     * under it is scrolled or covered on purpose, not misplaced.
     */
    const layerCache = new Map<Element, Element | null>();
    const layerOf = (el: Element): Element | null => {
      if (layerCache.has(el)) return layerCache.get(el)!;
      let layer: Element | null = null;
      for (let cur: Element | null = el; cur && cur !== document.body; cur = cur.parentElement) {
        const position = getComputedStyle(cur).position;
        if (position === 'fixed' || position === 'sticky' || cur.matches('[role="menu"], [role="listbox"], [role="tooltip"], [role="status"], [role="alert"], .toaster')) {
          layer = cur;
          break;
        }
      }
      layerCache.set(el, layer);
      return layer;
    };
    const ellipsisIntended = (el: Element): boolean => {
      const s = getComputedStyle(el);
      return s.textOverflow === 'ellipsis' || (s.webkitLineClamp !== undefined && s.webkitLineClamp !== 'none' && s.webkitLineClamp !== '');
    };

    interface TextBox {
      el: Element;
      text: string;
      rects: DOMRect[];
      /** Cut with an ellipsis on purpose: its hidden part is printed nowhere. */
      cutOnPurpose: boolean;
      /** Out of its scrolling box's visible part: reachable by scrolling, covered meanwhile. */
      scrolledAway: Element | null;
    }
    const boxes: TextBox[] = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!text.trim()) continue;
      const el = node.parentElement;
      if (!el || el.closest('script, style, noscript, template, option, select, textarea, [aria-hidden="true"]')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
      if (rects.length === 0 || invisible(el) || srOnly(el)) continue;

      // Clipped by an ancestor that hides its overflow, unless an ellipsis is intended there.
      let scrolledAway: Element | null = null;
      let cutOnPurpose = false;
      let clippedBy: Element | null = null;
      for (let cur: Element | null = el; cur && cur !== document.documentElement; cur = cur.parentElement) {
        const s = getComputedStyle(cur);
        const hidesX = s.overflowX !== 'visible';
        const hidesY = s.overflowY !== 'visible';
        if (!hidesX && !hidesY) continue;
        const r = cur.getBoundingClientRect();
        const outside = rects.some(
          (t) =>
            (hidesX && (t.left < r.left - TOLERANCE || t.right > r.right + TOLERANCE)) ||
            (hidesY && (t.top < r.top - TOLERANCE || t.bottom > r.bottom + TOLERANCE)),
        );
        if (!outside) continue;
        const scrolls = ['auto', 'scroll'].includes(s.overflowX) || ['auto', 'scroll'].includes(s.overflowY);
        if (scrolls) {
          scrolledAway = cur;
          break;
        }
        if (ellipsisIntended(cur) || ellipsisIntended(el)) {
          cutOnPurpose = true;
          break;
        }
        clippedBy = cur;
        break;
      }
      if (clippedBy) {
        problems.push({ kind: 'texte coupé', text: short(text), where: describe(el), detail: `coupé par ${describe(clippedBy)}` });
        continue;
      }
      if (!scrolledAway && !cutOnPurpose && !ellipsisIntended(el)) {
        const own = el as HTMLElement;
        if (own.scrollWidth > own.clientWidth + TOLERANCE && getComputedStyle(own).overflowX !== 'visible') {
          problems.push({ kind: 'texte coupé', text: short(text), where: describe(el), detail: `scrollWidth ${own.scrollWidth} > clientWidth ${own.clientWidth}` });
          continue;
        }
      }
      boxes.push({ el, text, rects, cutOnPurpose, scrolledAway });
    }

    // Text escaping the box of its label, button, link or heading prints over what follows.
    // Also below the fold of a scrolling dialog: the box and its text scroll together.
    for (const b of boxes) {
      if (b.cutOnPurpose) continue;
      const holder = b.el.closest('label, button, a, legend, th, h1, h2, h3, h4, h5, h6, [role="button"], [role="tab"], [role="menuitem"]');
      if (!holder || (holder as HTMLElement).offsetParent === null) continue;
      const r = holder.getBoundingClientRect();
      const out = b.rects.find((t) => t.left < r.left - TOLERANCE || t.right > r.right + TOLERANCE || t.top < r.top - TOLERANCE || t.bottom > r.bottom + TOLERANCE);
      if (out) {
        problems.push({
          kind: 'texte hors de son cadre',
          text: short(b.text),
          where: describe(holder),
          detail: `texte en ${Math.round(out.left)},${Math.round(out.top)} ${Math.round(out.width)}×${Math.round(out.height)} hors du cadre ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`,
        });
      }
    }

    // Two texts printed over each other.
    // Lines of a tight line-height touch by a few pixels; printed over each other means a real share of the height.
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > TOLERANCE && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.4 * Math.min(a.height, b.height);
    const printed = boxes.filter((b) => !b.cutOnPurpose);
    const scrollBoxOf = (el: Element): Element | null => {
      for (let cur = el.parentElement; cur && cur !== document.body; cur = cur.parentElement) {
        const s = getComputedStyle(cur);
        if (['auto', 'scroll'].includes(s.overflowX) || ['auto', 'scroll'].includes(s.overflowY)) return cur;
      }
      return null;
    };
    for (let i = 0; i < printed.length; i++) {
      for (let j = i + 1; j < printed.length; j++) {
        const a = printed[i]!;
        const b = printed[j]!;
        if (a.el === b.el || layerOf(a.el) !== layerOf(b.el)) continue;
        // Scrolled out of its box, a text lies where other content is drawn: only texts of the same box compare.
        if ((a.scrolledAway || b.scrolledAway) && scrollBoxOf(a.el) !== scrollBoxOf(b.el)) continue;
        const hit = a.rects.some((ra) => b.rects.some((rb) => overlap(ra, rb)));
        if (!hit) continue;
        problems.push({ kind: 'textes superposés', text: short(a.text), where: describe(a.el), detail: `imprimé sur « ${short(b.text)} » (${describe(b.el)})` });
      }
    }

    // Text under another element (a card, a popover): what the user sees at its centre is not the text.
    const related = (a: Element, b: Element) => a === b || a.contains(b) || b.contains(a);
    for (const b of printed) {
      if (b.scrolledAway) continue;
      for (const t of b.rects) {
        const x = t.left + t.width / 2;
        const y = t.top + t.height / 2;
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
        const top = document.elementFromPoint(x, y);
        if (!top || related(top, b.el)) continue;
        const topLayer = layerOf(top);
        if (topLayer && topLayer !== layerOf(b.el)) continue;
        // Hit through a pseudo-element (a card's whole-card link overlay is transparent by design).
        const box = top.getBoundingClientRect();
        if (x < box.left || x > box.right || y < box.top || y > box.bottom) continue;
        // A label's own control, or a control drawn over its own label text (an input in a label).
        const holder = b.el.closest('label, button, a');
        if (holder && related(top, holder)) continue;
        // The toast region floats over the page by design; it goes away by itself.
        if (top.closest('[role="status"], [role="alert"], .toast, .toasts')) continue;
        problems.push({ kind: 'texte masqué', text: short(b.text), where: describe(b.el), detail: `recouvert par ${describe(top)}` });
        break;
      }
    }

    // A control covered wherever scrolling puts it: what a tap at its centre reaches instead, or null when nothing covers it.
    const coverAt = (control: Element): Element | null => {
      const r = control.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return null;
      const top = document.elementFromPoint(x, y);
      if (!top || related(top, control)) return null;
      // A control's own label (around it, or pointing at it) takes the tap for it.
      const label = top.closest('label');
      if (label && (label.control === control || label === control.closest('label'))) return null;
      // Hit through a pseudo-element: a whole-card link's transparent overlay, by design.
      const box = top.getBoundingClientRect();
      if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
      // The toast region floats over the page by design; it goes away by itself.
      if (top.closest('[role="status"], [role="alert"], .toast, .toasts')) return null;
      // A decoration drawn on the control itself (a custom checkbox's tick) is part of it.
      const own = control.getBoundingClientRect();
      if (box.left >= own.left - TOLERANCE && box.right <= own.right + TOLERANCE && box.top >= own.top - TOLERANCE && box.bottom <= own.bottom + TOLERANCE) return null;
      // An open menu or list, and the bar that holds it, float over the page until closed.
      const layer = layerOf(top);
      const popup = '[role="menu"], [role="listbox"]';
      if (layer && (layer.matches(popup) || [...layer.querySelectorAll(popup)].some((open) => !invisible(open)))) return null;
      return top;
    };
    const scrollers = [document.scrollingElement ?? document.documentElement, ...scope.querySelectorAll('*')].filter((el) => {
      if (el === document.scrollingElement) return true;
      const s = getComputedStyle(el);
      return (['auto', 'scroll'].includes(s.overflowX) && el.scrollWidth > el.clientWidth) || (['auto', 'scroll'].includes(s.overflowY) && el.scrollHeight > el.clientHeight);
    });
    const saved = scrollers.map((el) => [el, el.scrollLeft, el.scrollTop] as const);
    const restoreScroll = () => {
      for (const [el, left, top] of saved) {
        el.scrollLeft = left;
        el.scrollTop = top;
      }
    };
    /** Its centre in the viewport and in the visible part of every box that scrolls it. */
    const centreShown = (control: Element): boolean => {
      const r = control.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
      return scrollers.every((box) => {
        if (box === document.scrollingElement || !box.contains(control)) return true;
        const b = box.getBoundingClientRect();
        return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;
      });
    };
    const controls = [...scope.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], [role="checkbox"], [role="tab"]')];
    try {
      for (const control of controls) {
        const r = control.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || invisible(control) || srOnly(control) || control.closest('[aria-hidden="true"], [inert]')) continue;
        if (centreShown(control) && !coverAt(control)) continue;
        // Scrolled away or covered: try where a browser or a test driver brings it (Playwright tries these too).
        let cover: Element | null = null;
        let clear = false;
        for (const align of ['nearest', 'end', 'center', 'start'] as const) {
          control.scrollIntoView({ block: align, inline: align, behavior: 'instant' });
          if (!centreShown(control)) continue;
          cover = coverAt(control);
          if (!cover) {
            clear = true;
            break;
          }
        }
        restoreScroll();
        if (clear || !cover) continue;
        const name = control.getAttribute('aria-label') ?? (control as HTMLElement).innerText ?? '';
        problems.push({ kind: 'commande recouverte', text: short(name), where: describe(control), detail: `recouvert par ${describe(cover)} à toutes les positions de défilement` });
      }
    } finally {
      restoreScroll();
    }
    return problems;
  }) as Promise<LayoutProblem[]>;
}

/** Readable report, one line per problem, for a test failure message. */
export function describeLayoutProblems(screenName: string, problems: readonly LayoutProblem[]): string {
  const lines = [`${screenName} : ${problems.length} problème(s) de mise en page (texte coupé, superposé ou masqué)`];
  for (const p of problems.slice(0, 20)) lines.push(`- ${p.kind} : « ${p.text} » (${p.where}) — ${p.detail}`);
  if (problems.length > 20) lines.push(`  … et ${problems.length - 20} autre(s)`);
  return lines.join('\n');
}

export async function expectReadableLayout(page: Page, screenName: string): Promise<void> {
  const problems = await layoutProblems(page);
  if (problems.length > 0) throw new Error(describeLayoutProblems(screenName, problems));
}
