import type { ManualClock } from '../../src/core/clock.js';
import type { BeatState } from '../../src/domains/audience/viewers/counter.js';
import type { Beacon, ViewerCounter } from '../../src/domains/audience/viewers/counter.js';
import { prng } from './random.js';

export interface CrowdOptions {
  counter: ViewerCounter;
  clock: ManualClock;
  streamId: string;
  seed: number;
  intervalSeconds: number;
  /** The embed read is served from a cache this old at most. */
  embedCacheSeconds?: number;
  /** Players read the embed again this often (±10%). */
  refreshSeconds?: number;
  /** The counter is sampled this often (as the timer would). */
  sampleSeconds?: number;
  /** Share of watching players paused and buffering at any beat. */
  paused?: number;
  buffering?: number;
}

interface Player {
  s: string;
  u: number;
  st: BeatState;
  rate: number;
  present: boolean;
}

const READ = 0;
const CHECK = 1;

/**
 * Hosted players as the spec has them report, one second at a time against a manual clock: each
 * draws `u` once, reads the embed (through a short cache) on arrival and about every minute, and
 * every interval (±10%) sends a beat only while `u` is below the rate it last read.
 */
export class Crowd {
  readonly players: Player[] = [];
  /** Beats sent in each second. */
  readonly beats: number[] = [];
  private readonly due: number[][] = [];
  private readonly rnd: () => number;
  private readonly cacheSeconds: number;
  private readonly refreshSeconds: number;
  private readonly sampleSeconds: number;
  private cached: { beacon: Beacon; at: number } | null = null;
  private live = true;
  /** Seconds since the crowd started. */
  t = 0;

  constructor(private readonly opts: CrowdOptions) {
    this.rnd = prng(opts.seed);
    this.cacheSeconds = opts.embedCacheSeconds ?? 5;
    this.refreshSeconds = opts.refreshSeconds ?? 60;
    this.sampleSeconds = opts.sampleSeconds ?? 5;
  }

  /** `count` players open the page now: on the waiting screen unless the stream is live. */
  join(count: number): void {
    for (let i = 0; i < count; i++) {
      const index = this.players.length;
      this.players.push({
        s: `viewer-${this.opts.seed}-${index}`,
        u: this.rnd(),
        st: this.live ? this.watchingState() : 'w',
        rate: 1,
        present: true,
      });
      this.read(index);
      this.check(index);
    }
  }

  /** `count` present players (picked at random) close the page without a word. */
  leave(count: number): void {
    const present = this.players.filter((p) => p.present);
    for (let i = 0; i < count && present.length; i++) {
      const [gone] = present.splice(Math.floor(this.rnd() * present.length), 1);
      if (gone) gone.present = false;
    }
  }

  /** From now on waiting players start playing at their next beat. */
  goLive(): void {
    this.live = true;
  }

  /** The stream is pending: players who join now wait. */
  pending(): this {
    this.live = false;
    return this;
  }

  /** One second: due reads and beats, a sample on the sampling timer's beat, then the clock moves on. */
  tick(joining = 0): void {
    this.join(joining);
    const events = this.due[this.t] ?? [];
    delete this.due[this.t];
    for (const event of events) {
      const index = event >> 1;
      if (!this.players[index]?.present) continue;
      if ((event & 1) === READ) this.read(index);
      else this.check(index);
    }
    if (this.t % this.sampleSeconds === 0) this.opts.counter.sample();
    this.opts.clock.advance(1);
    this.t += 1;
  }

  run(seconds: number, joiningPerSecond = 0): void {
    for (let i = 0; i < seconds; i++) this.tick(joiningPerSecond);
  }

  /** What the counter should see: every present player. */
  truth(): { watching: number; waiting: number; buffering_pct: number } {
    const n = { p: 0, z: 0, b: 0, w: 0 };
    for (const p of this.players) if (p.present) n[p.st] += 1;
    const watching = n.p + n.z + n.b;
    return { watching, waiting: n.w, buffering_pct: watching ? (100 * n.b) / watching : 0 };
  }

  /** Beats sent in the last `seconds` seconds. */
  beatsInLast(seconds: number): number {
    let sum = 0;
    for (let t = Math.max(0, this.t - seconds); t < this.t; t++) sum += this.beats[t] ?? 0;
    return sum;
  }

  private read(index: number): void {
    const player = this.players[index] as Player;
    if (!this.cached || this.t - this.cached.at >= this.cacheSeconds)
      this.cached = { beacon: this.opts.counter.beacon(this.opts.streamId), at: this.t };
    player.rate = this.cached.beacon.rate;
    this.schedule(index, READ, this.refreshSeconds);
  }

  private check(index: number): void {
    const player = this.players[index] as Player;
    if (player.st === 'w' ? this.live : this.rnd() < 0.05) player.st = this.watchingState();
    if (player.u < player.rate) {
      this.opts.counter.beat(this.opts.streamId, { s: player.s, st: player.st, u: player.u }, player.s);
      this.beats[this.t] = (this.beats[this.t] ?? 0) + 1;
    }
    this.schedule(index, CHECK, this.opts.intervalSeconds);
  }

  private watchingState(): BeatState {
    const x = this.rnd();
    if (x < (this.opts.buffering ?? 0.05)) return 'b';
    if (x < (this.opts.buffering ?? 0.05) + (this.opts.paused ?? 0.1)) return 'z';
    return 'p';
  }

  /** About every `seconds` (±10%), in whole seconds. */
  private schedule(index: number, kind: number, seconds: number): void {
    const at = this.t + Math.max(1, Math.round(seconds * (0.9 + 0.2 * this.rnd())));
    (this.due[at] ??= []).push(index * 2 + kind);
  }
}
