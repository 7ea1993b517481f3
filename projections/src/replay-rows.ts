type AnyRow = Readonly<Record<string, unknown>>;

/**
 * The rows a replay's last batch wrote, by table and key, as written. The
 * next batch's fold starts from them instead of loading them, and loads no
 * row for a stream whose first event (revision 0) it holds: a replay is given
 * each event once (the runner's checkpoints), so no such row can exist yet.
 * This is what lets the runner fold batch N+1 while Postgres still writes
 * batch N (runner/pipelined-replay.ts): the fold needs no row that batch N
 * has not committed. The rows it holds may not be committed yet: after any
 * failure the runner stops using the cache. Only the last batch's rows are
 * kept: keeping two batches' hardly saved a load at 1M tickets and cost
 * 30 MB of peak memory (docs/benchmarks.md).
 *
 * Given to the projectors with a replay's batches (`Projector.apply`); the
 * folded read models use it (read-models/folded-rows.ts).
 *
 * Folds of one table run one at a time, in the order they were asked for, so
 * batch N+1's fold starts from batch N's rows: a projector asks for its turn
 * before its first `await` (the runner starts every projector's `apply` of a
 * batch before the next batch's). A projector that writes a folded table
 * otherwise (SQL over many rows) calls `forget` for it, in the same way.
 */
export class ReplayRows {
  private readonly tables = new Map<string, { rows: Map<string, AnyRow>; turn: Promise<void> }>();

  /** Runs `fold` once the earlier folds of this table are done; `keep` replaces the rows kept with the ones it writes. */
  async inTurn<T>(table: string, fold: (cached: { get(key: string): AnyRow | undefined; keep(rows: Map<string, AnyRow>): void }) => Promise<T>): Promise<T> {
    let entry = this.tables.get(table);
    if (!entry) this.tables.set(table, (entry = { rows: new Map(), turn: Promise.resolve() }));
    const kept = entry;
    const previous = kept.turn;
    let done!: () => void;
    kept.turn = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      return await fold({
        get: (key) => kept.rows.get(key),
        keep: (rows) => {
          kept.rows = rows;
        },
      });
    } finally {
      done();
    }
  }

  /** Drops this table's rows once the earlier folds are done: the next fold loads what it needs. */
  forget(table: string): void {
    void this.inTurn(table, async (cached) => cached.keep(new Map()));
  }
}
