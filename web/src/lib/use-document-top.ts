import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The element's distance from the top of the document, kept current when
 * something above it grows or shrinks (a filter panel opening, a banner): the
 * `scrollMargin` of a list virtualised against the window.
 */
export function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return top;
}
