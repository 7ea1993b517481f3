/**
 * Stand-in for `signature_pad` in component tests (happy-dom has no canvas
 * drawing). `vi.mock('signature_pad', () => import('../testing/fake-signature-pad'))`,
 * then `drawOn(label)` simulates a finger stroke on the canvas of that field.
 */
const pads: FakeSignaturePad[] = [];

export default class FakeSignaturePad {
  readonly canvas: HTMLCanvasElement;
  readonly options: Record<string, unknown>;
  private empty = true;
  private listeners = new Map<string, Set<() => void>>();
  restoredFrom: string | null = null;

  constructor(canvas: HTMLCanvasElement, options: Record<string, unknown> = {}) {
    this.canvas = canvas;
    this.options = options;
    pads.push(this);
  }

  addEventListener(type: string, listener: () => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: () => void) {
    this.listeners.get(type)?.delete(listener);
  }

  clear() {
    this.empty = true;
  }

  isEmpty() {
    return this.empty;
  }

  toDataURL() {
    return 'data:image/png;base64,iVBORw0KGgo=';
  }

  fromDataURL(dataUrl: string) {
    this.restoredFrom = dataUrl;
    this.empty = false;
    return Promise.resolve();
  }

  off() {}

  /** A finger stroke: the pad is no longer empty and tells its listeners. */
  stroke() {
    this.empty = false;
    for (const listener of this.listeners.get('endStroke') ?? []) listener();
  }
}

export function padFor(canvas: Element): FakeSignaturePad {
  const pad = [...pads].reverse().find((p) => p.canvas === canvas);
  if (!pad) throw new Error('no signature pad on this canvas');
  return pad;
}
