/**
 * Runs tasks one after another per key and different keys side by side: the messages of one chat
 * are handled in the order they came while other chats go on. A key's entry is dropped when its
 * last task ends, so memory follows the chats in flight, not every chat ever seen. A failing task
 * is reported and never stops the ones queued after it.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly onError: (err: unknown, key: string) => void) {}

  /** Queues `task` behind the key's earlier ones; resolves when it has run (never rejects). */
  run(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const tail = previous.then(task).catch((err: unknown) => {
      try {
        this.onError(err, key);
      } catch {
        // a failing reporter must not break the chain either
      }
    });
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return tail;
  }

  /** Keys with work queued or running. */
  get pending(): number {
    return this.tails.size;
  }

  /** Resolves once every queued task (including ones queued meanwhile) has run. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
