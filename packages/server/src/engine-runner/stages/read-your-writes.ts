// The read-your-writes stage: who waits for the projector, and what each reader was last told.
//
// whenProjected(seq) parks a waiter until the projector stage reports a projected seq at or past it (or its
// timeout passes); the seqs acknowledged to a reader (a user id) are remembered until projected, so that the
// reader's next read can wait for its own writes (../read-your-writes.ts does that per request).

interface ProjectionWaiter {
  seq: number;
  resolve: (reached: boolean) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class ProjectionWaits {
  private waiters: ProjectionWaiter[] = [];
  private readonly acknowledged = new Map<number | string, number>();

  /** Resolves true once settle() reached `seq`, false when `timeoutMs` passed first. */
  wait(seq: number, timeoutMs: number | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const waiter: ProjectionWaiter = { seq, resolve, reject, timer: undefined };
      if (timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter);
          resolve(false);
        }, timeoutMs);
      }
      this.waiters.push(waiter);
    });
  }

  /** Remembers `seq` as acknowledged to `key`, unless it is projected already. */
  note(key: number | string, seq: number, projectedSeq: number): void {
    if (seq <= projectedSeq) return;
    if (seq > (this.acknowledged.get(key) ?? 0)) this.acknowledged.set(key, seq);
  }

  /**
   * The last seq acknowledged to `key` and not yet projected, or 0; while the commands recovered from the
   * durable log (up to `recoveredSeq`) are not all projected, at least the last of them.
   */
  acknowledgedSeq(key: number | string, projectedSeq: number, recoveredSeq: number): number {
    const floor = recoveredSeq > projectedSeq ? recoveredSeq : 0;
    const seq = this.acknowledged.get(key);
    if (seq === undefined) return floor;
    if (seq > projectedSeq) return Math.max(seq, floor);
    this.acknowledged.delete(key);
    return floor;
  }

  /** Resolves the waiters the projector has reached, and forgets projected acknowledgements. */
  settle(projectedSeq: number): void {
    if (this.waiters.length > 0) {
      const waiting: ProjectionWaiter[] = [];
      for (const waiter of this.waiters) {
        if (waiter.seq > projectedSeq) {
          waiting.push(waiter);
          continue;
        }
        if (waiter.timer !== undefined) clearTimeout(waiter.timer);
        waiter.resolve(true);
      }
      this.waiters = waiting;
    }
    // Acknowledgements are dropped when read past; a sweep keeps readers who never come back from piling up.
    if (this.acknowledged.size > 10_000) {
      for (const [key, seq] of this.acknowledged) if (seq <= projectedSeq) this.acknowledged.delete(key);
    }
  }

  /** Rejects every waiter (the runner stopped or closed). */
  rejectAll(error: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (waiter.timer !== undefined) clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }
}
