/**
 * Connections held per key (an address's network), in memory only and only while they are open:
 * the chat feed's per-address cap, so that one client cannot take a node's readers.
 */
export class AddressSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A slot for `key`, or null when it holds `max`; the release may be called any number of times. */
  take(key: string): (() => void) | null {
    const n = this.held.get(key) ?? 0;
    if (n >= this.max) return null;
    this.held.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
