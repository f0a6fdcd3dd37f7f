import { Client } from 'pg';
import type { Logger } from '../config/logger';
import type { Role } from '../domain/roles';

/** What authentication needs of a user row. */
export interface CachedUser {
  id: string;
  tenant_id: string;
  role: Role;
  email: string;
  sessions_valid_after: Date | null;
}

export const USER_CHANGED_CHANNEL = 'sentinel_user_changed';

const MAX_ENTRIES = 50_000;
// A safety net only: a change is forgotten as soon as PostgreSQL announces it.
const TTL_MS = 5 * 60_000;
const RECONNECT_MS = [100, 500, 1_000, 5_000];

/**
 * The callers of this API process, so an authenticated request does not read its user row each time. Correct
 * across processes through PostgreSQL: a trigger announces every change to a user row on `sentinel_user_changed`
 * (db/migrations/20261126T000100_user_change_notifications.ts), and this process forgets that user when it hears
 * it. While the listening connection is down (and until it is back and listening) nothing is cached or served
 * from the cache: every request reads the database, as it would without a cache.
 *
 * A read that raced a change is not cached: `generation` moves on every announcement, and an entry is kept only if
 * no announcement arrived between the read and the keep.
 */
export class CallerCache {
  private readonly entries = new Map<string, { user: CachedUser; until: number }>();
  private listening = false;
  private generationCount = 0;
  private client: Client | undefined;
  private closed = false;
  private reconnects = 0;

  constructor(private readonly options: { url: string; log: Logger }) {}

  /** Starts listening; resolves once the first LISTEN is in place (or failed: the cache then stays off until it is). */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.off();
    await this.client?.end().catch(() => undefined);
  }

  /** Changes on every announcement and whenever the cache goes off: compare before and after a read. */
  generation(): number {
    return this.generationCount;
  }

  get(tenantId: string, userId: string): CachedUser | undefined {
    if (!this.listening) return undefined;
    const key = `${tenantId}:${userId}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.user;
  }

  /** Keeps a user read from the database, unless the cache is off or something changed since `readAt` (a generation). */
  keep(user: CachedUser, readAt: number): void {
    if (!this.listening || readAt !== this.generationCount) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // The oldest entry goes first (a Map iterates in insertion order).
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(`${user.tenant_id}:${user.id}`, { user, until: Date.now() + TTL_MS });
  }

  private off(): void {
    this.listening = false;
    this.generationCount += 1;
    this.entries.clear();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.options.url });
    this.client = client;
    client.on('notification', (message) => {
      this.generationCount += 1;
      if (message.payload) this.entries.delete(message.payload);
    });
    client.on('error', (err) => {
      this.options.log.warn({ err }, 'caller cache: the listening connection failed; callers are read from the database');
      this.retry(client);
    });
    client.on('end', () => this.retry(client));
    try {
      await client.connect();
      await client.query(`listen ${USER_CHANGED_CHANNEL}`);
      // Anything cached before this LISTEN may have missed an announcement: start empty.
      this.entries.clear();
      this.generationCount += 1;
      this.listening = true;
      this.reconnects = 0;
    } catch (err) {
      this.options.log.warn({ err }, 'caller cache: could not listen for user changes; callers are read from the database');
      this.retry(client);
    }
  }

  private retry(client: Client): void {
    if (this.client !== client) return; // that connection was replaced already
    this.client = undefined;
    this.off();
    client.end().catch(() => undefined);
    if (this.closed) return;
    const delay = RECONNECT_MS[Math.min(this.reconnects, RECONNECT_MS.length - 1)]!;
    this.reconnects += 1;
    setTimeout(() => void this.connect(), delay).unref();
  }
}
