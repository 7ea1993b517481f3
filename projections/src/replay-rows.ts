/** How many batches' rows a replay keeps: a ticket's next events mostly come within a batch or two. */
const CACHED_BATCHES = 2;

type AnyRow = Readonly<Record<string, unknown>>;

/**
 * The rows a replay's last batches wrote, by table and key, as written. The
 * next batch's fold starts from them instead of loading them, and loads no
 * row for a stream whose first event (revision 0) it holds: a replay is given
 * each event once (the runner's checkpoints), so no such row can exist yet.
 * This is what lets the runner fold batch N+1 while Postgres still writes
 * batch N (runner.ts, pipelined replay): the fold needs no row that batch N
 * has not committed. The rows it holds may not be committed yet: after any
 * failure the runner stops using the cache.
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
  private readonly tables = new Map<string, { batches: Map<string, AnyRow>[]; turn: Promise<void> }>();

  /** Runs `fold` once the earlier folds of this table are done; `keep` adds the rows it writes. */
  async inTurn<T>(table: string, fold: (cached: { get(key: string): AnyRow | undefined; keep(rows: Map<string, AnyRow>): void }) => Promise<T>): Promise<T> {
    let entry = this.tables.get(table);
    if (!entry) this.tables.set(table, (entry = { batches: [], turn: Promise.resolve() }));
    const batches = entry.batches;
    const previous = entry.turn;
    let done!: () => void;
    entry.turn = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      return await fold({
        get(key) {
          for (let index = batches.length - 1; index >= 0; index--) {
            const row = batches[index]!.get(key);
            if (row !== undefined) return row;
          }
          return undefined;
        },
        keep(rows) {
          batches.push(rows);
          if (batches.length > CACHED_BATCHES) batches.shift();
        },
      });
    } finally {
      done();
    }
  }

  /** Drops this table's rows once the earlier folds are done: the next fold loads what it needs. */
  forget(table: string): void {
    void this.inTurn(table, async () => {
      this.tables.get(table)?.batches.splice(0);
    });
  }
}
