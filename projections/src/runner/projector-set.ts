import type { Projector } from '../projector.js';

/**
 * The runner's projectors and how they depend on one another: which handle
 * each event type, which read which (Projector.readsFrom), in registration
 * order, which is the order they are applied in.
 */
export class ProjectorSet {
  readonly all: readonly Projector[];
  private readonly byType = new Map<string, Projector[]>();
  /** Per projector, those reading its tables, directly or through another: they stop with it. */
  private readonly readers = new Map<Projector, Projector[]>();
  /**
   * Readers and the sources they read (Projector.readsFrom): applied event by
   * event, in log order across them, so a reader copies its sources as they
   * stood at its event whatever the batch boundaries (a live batch of 3 and a
   * rebuild batch of 2,000 then leave the same rows).
   */
  private readonly interleaved = new Set<Projector>();

  constructor(projectors: readonly Projector[]) {
    this.all = projectors;
    const names = new Set<string>();
    for (const projector of projectors) {
      if (names.has(projector.name)) throw new Error(`projector ${projector.name} registered twice`);
      // Projectors are applied in this order: a reader after what it reads sees its rows (Projector.readsFrom).
      for (const source of projector.readsFrom ?? []) {
        if (!names.has(source)) throw new Error(`projector ${projector.name} reads ${source}: register ${source} before it, in the same runner`);
      }
      names.add(projector.name);
      for (const type of projector.handles) {
        const list = this.byType.get(type) ?? [];
        list.push(projector);
        this.byType.set(type, list);
      }
    }
    for (const projector of projectors) {
      const sources = projector.readsFrom ?? [];
      if (sources.length > 0) this.interleaved.add(projector);
      for (const source of projectors) if (sources.includes(source.name)) this.interleaved.add(source);
    }
    for (const projector of projectors) {
      const found = new Set<string>([projector.name]);
      for (const reader of projectors) {
        if ((reader.readsFrom ?? []).some((source) => found.has(source))) found.add(reader.name);
      }
      found.delete(projector.name);
      this.readers.set(
        projector,
        projectors.filter((reader) => found.has(reader.name)),
      );
    }
  }

  /** The event types some projector handles: what the subscription reads. */
  get eventTypes(): string[] {
    return [...this.byType.keys()];
  }

  /** The projector set's fingerprint: a change means the read models must be rebuilt. */
  get versions(): Record<string, number> {
    return Object.fromEntries(this.all.map((p) => [p.name, p.version]));
  }

  handling(type: string): readonly Projector[] {
    return this.byType.get(type) ?? [];
  }

  readersOf(projector: Projector): readonly Projector[] {
    return this.readers.get(projector) ?? [];
  }

  isInterleaved(projector: Projector): boolean {
    return this.interleaved.has(projector);
  }
}
