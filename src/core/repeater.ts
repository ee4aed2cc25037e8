/**
 * Runs `tick` every `intervalMs`, counted from the end of the previous run, so two runs never
 * overlap however slow one is; `stop` waits for a run in progress. `tick` must not reject.
 */
export class Repeater {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly tick: () => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    const next = () => {
      this.running = this.tick().finally(() => {
        this.running = null;
        if (this.timer) this.timer = setTimeout(next, this.intervalMs);
      });
    };
    this.timer = setTimeout(next, this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
