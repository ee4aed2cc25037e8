/**
 * Counts per key in fixed windows (a minute, ten seconds), in this process's memory only and only
 * for the window: a cheap first check before a count every node shares (chat posts, counted in
 * PostgreSQL; `SharedWindows` for limits that have no table of their own).
 */
export class FixedWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly now: () => number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whole seconds until the key's window ends when it has reached `limit`, else null. */
  over(key: string, limit: number): number | null {
    const window = this.current(key);
    if (!window || window.count < limit) return null;
    return Math.max(1, Math.ceil((window.start + this.windowMs - this.now()) / 1000));
  }

  add(key: string): void {
    const window = this.current(key);
    if (window) window.count += 1;
    else this.windows.set(key, { start: this.now(), count: 1 });
    if (this.windows.size > this.maxKeys) this.prune();
  }

  private current(key: string): { start: number; count: number } | undefined {
    const window = this.windows.get(key);
    if (window && this.now() - window.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private prune(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [key, window] of this.windows) if (window.start <= cutoff) this.windows.delete(key);
  }
}
