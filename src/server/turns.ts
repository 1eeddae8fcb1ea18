/**
 * Changes run one after another per key, each after every change to the same key started before
 * it (a failed one does not stop the next): a record's writes, a dispatch's changes, the requests
 * with one Idempotency-Key. Keys with nothing under way take no memory.
 */
export class KeyedTurns {
  private readonly pending = new Map<string, Promise<unknown>>();

  run<T>(key: string, change: () => Promise<T>): Promise<T> {
    const previous = this.pending.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(change);
    this.pending.set(key, next);
    void next
      .finally(() => {
        if (this.pending.get(key) === next) this.pending.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  /** Resolves once every change started so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending.values()]);
  }
}
