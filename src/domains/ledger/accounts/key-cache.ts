import type { Clock } from '../../../core/clock.js';
import { newId, sha256 } from '../../../core/ids.js';
import type { Logger } from '../../../core/logger.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { Account } from './model.js';
import { findAccountByApiKeyHash } from './queries.js';

/**
 * How long a node believes what it read of an API key and its account, however notifications
 * fare: a revoked key or a suspended account is refused on every node within this even when the
 * LISTEN connection is down. Notifications make it milliseconds in the ordinary case.
 */
export const API_KEY_TTL_MS = 1000;
/** The channel migration 011's triggers announce changed keys and accounts on (payload: the account id). */
export const API_KEYS_CHANNEL = 'svc_api_keys';
const MAX_CACHED = 10_000;

interface Entry {
  account: Account;
  at: number;
}

/**
 * API keys' accounts, so that a keyed request does not cost a database round trip of its own (issue
 * 16). Kept by the key as sent, in this process's memory only (every request carries it anyway):
 * a request that finds its key here is not hashed at all; the database is read by the key's
 * SHA-256. A key's account is forgotten when its keys or its state change (NOTIFY from migration
 * 011), when the LISTEN connection (re)connects (what was announced while it was away is lost),
 * and a second after it was read in any case. Unknown keys are never cached: a key created a
 * moment ago works at once, and guessing keys cannot fill the cache.
 */
export class ApiKeys {
  private readonly cache = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Account | null>>();
  /** Bumped by every invalidation: a read that started before one must not be cached after it. */
  private generation = 0;
  private listening = false;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly syncs = new Map<string, () => void>();

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Listens for changes; until it does, every request reads the database (nothing is cached). */
  async start(): Promise<void> {
    try {
      const { unlisten } = await this.sql.listen(
        API_KEYS_CHANNEL,
        (payload) => this.onNotify(payload),
        () => this.onListen(),
      );
      this.unlisten = unlisten;
    } catch (err) {
      // postgres.js listens again when the connection comes back; until then the TTL bounds all.
      this.logger.debug({ err }, 'api keys: listen failed; reading every key from the database');
    }
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.forget();
    // A dead connection may never answer UNLISTEN: wait a second at most.
    await Promise.race([this.unlisten?.().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }

  /**
   * The active key's account if this node knows it now (no database read, no hashing: a keyed
   * request's usual path); undefined when `find` must read it.
   */
  known(token: string): Account | undefined {
    const known = this.cache.get(token);
    if (known && this.clock.now().getTime() - known.at < API_KEY_TTL_MS && this.listening) return known.account;
    return undefined;
  }

  /** The active key's account, or null (unknown or revoked). */
  async find(token: string): Promise<Account | null> {
    const account = this.known(token);
    if (account) return account;
    // Concurrent requests with one key share one read.
    let loading = this.loading.get(token);
    if (!loading) {
      loading = this.read(token, this.clock.now().getTime()).finally(() => this.loading.delete(token));
      this.loading.set(token, loading);
    }
    return loading;
  }

  /**
   * Resolves once every change committed before the call has reached this node's cache:
   * notifications arrive in commit order, so our own later one proves the earlier ones came.
   */
  async sync(): Promise<void> {
    if (!this.listening) return;
    const nonce = newId('sync_');
    const arrived = new Promise<void>((resolve) => this.syncs.set(nonce, resolve));
    await this.sql`select pg_notify(${API_KEYS_CHANNEL}, ${nonce})`;
    await Promise.race([arrived, new Promise((r) => setTimeout(r, API_KEY_TTL_MS).unref())]);
    this.syncs.delete(nonce);
  }

  private async read(token: string, now: number): Promise<Account | null> {
    const generation = this.generation;
    const account = await findAccountByApiKeyHash(this.sql, sha256(token));
    if (account && generation === this.generation && this.listening) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(token, { account, at: now });
    } else {
      this.cache.delete(token);
    }
    return account;
  }

  private onListen(): void {
    // Changes announced while the connection was away were lost with it: start afresh.
    this.forget();
    this.listening = true;
  }

  private onNotify(payload: string): void {
    const sync = this.syncs.get(payload);
    if (sync) return sync();
    this.generation++;
    for (const [token, entry] of this.cache) if (entry.account.id === payload) this.cache.delete(token);
  }

  private forget(): void {
    this.generation++;
    this.cache.clear();
  }
}
