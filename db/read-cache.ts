import { Client } from 'pg';
import type { Logger } from '../config/logger';
import { readCacheLookups } from '../observability/metrics';
import type { PlanId } from '../domain/tenancy/plans';
import type { Role } from '../domain/tenancy/roles';
import type { TenantStatus } from '../domain/tenancy/tenants';

/** What authentication and GET /me need of a user row. */
export interface CachedUser {
  id: string;
  tenant_id: string;
  role: Role;
  email: string;
  name: string;
  created_at: Date;
  email_verified_at: Date | null;
  sessions_valid_after: Date | null;
}

/** What GET /me shows of the caller's tenant. */
export interface CachedTenant {
  name: string;
  plan: PlanId;
  status: TenantStatus;
  created_at: Date;
}

// What the database announces, after the change commits (the triggers of the migrations named).
/** `<tenant_id>:<user_id>`: any change to a user row (20261126T000100_user_change_notifications.ts). */
export const USER_CHANGED_CHANNEL = 'sentinel_user_changed';
/** `<tenant_id>`: a change to what GET /me shows of a tenant (20261128T000200_tenant_change_notifications.ts). */
export const TENANT_CHANGED_CHANNEL = 'sentinel_tenant_changed';
/** `<tenant_id>`: a change to what GET /accounts shows of one of its accounts (20261128T000300_read_page_notifications.ts). */
export const ACCOUNTS_CHANGED_CHANNEL = 'sentinel_accounts_changed';
/** `<tenant_id>`: a signal or an acceptance of one of its accounts written (the same migration). */
export const SIGNALS_CHANGED_CHANNEL = 'sentinel_signals_changed';
/**
 * `<tenant_id>`: a scan of one of its accounts ended, or a score history point written
 * (20261216T000100_overview_notifications.ts).
 */
export const OVERVIEW_CHANGED_CHANNEL = 'sentinel_overview_changed';
const CHANNELS = [
  USER_CHANGED_CHANNEL,
  TENANT_CHANGED_CHANNEL,
  ACCOUNTS_CHANGED_CHANNEL,
  SIGNALS_CHANGED_CHANNEL,
  OVERVIEW_CHANGED_CHANNEL,
];

/**
 * The pages kept: of GET /accounts, of the signals of an account or of every account (GET /signals), and the
 * portfolio overview (GET /overview), which shows accounts, signals, scans and score history alike.
 */
export type PageKind = 'accounts' | 'signals' | 'overview';
// An account connected or deleted changes its signal pages too (an empty page, or none: 404); a cross-account page
// filtered by tag changes with the accounts' tags.
const PAGES_OF_CHANNEL: Record<string, PageKind[]> = {
  [ACCOUNTS_CHANGED_CHANNEL]: ['accounts', 'signals', 'overview'],
  [SIGNALS_CHANGED_CHANNEL]: ['signals', 'overview'],
  [OVERVIEW_CHANGED_CHANNEL]: ['overview'],
};
const PAGE_KINDS: PageKind[] = ['accounts', 'signals', 'overview'];

/** Tenants kept (with their callers). */
const MAX_TENANTS = 50_000;
const MAX_USERS_PER_TENANT = 1_000;
/**
 * Pages kept, of every tenant (each filter, sort and cursor is a page of its own), and their size: a page of 250
 * accounts is about 80 KB of JSON, one of 200 signals about 160 KB (a signal's text is bounded:
 * domain/signals/bounds.ts). Each page is kept as its object and its JSON (the bytes the API sends), so the bound is
 * on those bytes: the least recently read pages go until the kept ones fit, and a page of more than a sixteenth of it
 * is not kept at all (it would push out dozens; it is read from the database each time). So whatever a tenant's pages
 * hold, a process keeps some 64 MB of JSON and about as much again of objects.
 */
export const MAX_PAGES = 500;
export const MAX_PAGE_BYTES = 64 * 1024 * 1024;
const LARGEST_PAGE_SHARE = 16;
// A safety net only: a change is forgotten as soon as PostgreSQL announces it.
const TTL_MS = 5 * 60_000;
const RECONNECT_MS = [100, 500, 1_000, 5_000];
/**
 * How often the listening connection is asked to answer, and how long it may take: a connection that died without a
 * word (a firewall's idle timeout, a failover) would otherwise leave the cache serving what it can no longer hear of.
 */
const HEARTBEAT = { everyMs: 15_000, timeoutMs: 5_000 };
/** The listening connection's `application_name`. */
export const LISTENER_NAME = 'sentinel-read-cache';

const LOOKUP_OF_KIND = { accounts: 'account_page', signals: 'signal_page', overview: 'overview' } as const;

/**
 * A page of the tenant's through the process's cache (none in some tests): the kept one, else the one `read` answers,
 * kept unless the tenant was announced during the read. `query` names the page (every parameter that shapes it);
 * `expiresAt` says when a page read stops being true by itself (ms), if it ever does.
 */
export async function readPageThrough<T>(
  readCache: ReadCache | undefined,
  page: { kind: PageKind; tenantId: string; query: string },
  read: () => Promise<T>,
  expiresAt: (page: T) => number | undefined = () => undefined,
): Promise<T> {
  const { kind, tenantId, query } = page;
  const cached = readCache?.getPage(kind, tenantId, query);
  readCacheLookups.inc({ read: LOOKUP_OF_KIND[kind], result: cached ? 'hit' : 'miss' });
  if (cached) return cached as T;
  const readAt = readCache?.generation(tenantId) ?? 0;
  const answer = await read();
  // Frozen once kept: every later request gets this very object (and the API its JSON, written once).
  if (readCache?.keepPage(kind, tenantId, query, answer, readAt, expiresAt(answer))) Object.freeze(answer);
  return answer;
}

// The JSON of each kept page, written when it is kept (its size is what the cache counts) and sent as it is.
const jsonOfKeptPages = new WeakMap<object, Buffer>();

/** The JSON of a page the cache keeps (frozen by readPageThrough), if it is one. */
export function jsonOfKeptPage(page: object): Buffer | undefined {
  return jsonOfKeptPages.get(page);
}

/**
 * Entries that expire, the least recently used dropped first when full: a Map iterates in insertion order, and an
 * entry read is moved to the end, so a page read all the time stays while others come and go. Full is `capacity`
 * entries or, when the entries are given a size, `maxBytes` of them.
 */
class Shelf<T> {
  private readonly entries = new Map<string, { value: T; until: number; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Infinity,
  ) {}

  /** The sizes of the entries kept, added up. */
  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= Date.now()) {
      this.totalBytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (of `bytes`) until `until` (a time in ms), and never past the TTL. */
  set(key: string, value: T, until = Infinity, bytes = 0): void {
    this.delete(key);
    for (const [leastRecent] of this.entries) {
      if (this.entries.size < this.capacity && this.totalBytes + bytes <= this.maxBytes) break;
      this.delete(leastRecent);
    }
    this.entries.set(key, { value, until: Math.min(until, Date.now() + TTL_MS), bytes });
    this.totalBytes += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  deleteStartingWith(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }
}

/** The tenant's inner shelf, made on first use. */
function shelfOf<T>(outer: Shelf<Shelf<T>>, tenantId: string, capacity: number): Shelf<T> {
  let inner = outer.get(tenantId);
  if (!inner) {
    inner = new Shelf<T>(capacity);
    outer.set(tenantId, inner);
  }
  return inner;
}

/**
 * What this API process keeps of the database between requests: the callers it authenticated, their tenants as
 * GET /me shows them, and the tenants' pages of GET /accounts and of their accounts' signals. Correct across processes
 * through PostgreSQL: triggers announce every change to what is kept (the channels above), and this process forgets
 * that user, tenant or tenant's pages when it hears it. So a removed user, a changed role or a rescored account
 * applies on every process at once. While the listening connection is down (and until it is back and listening)
 * nothing is kept or served from here: every request reads the database, as it would without a cache.
 *
 * A read that raced a change is not kept: the tenant's `generation` moves on every announcement of it (and every
 * tenant's when the cache goes off or starts again), and an entry is kept only if it did not move between the read
 * and the keep.
 */
export class ReadCache {
  // Callers by tenant, so a tenant's are forgotten together.
  private readonly users = new Shelf<Shelf<CachedUser>>(MAX_TENANTS);
  private readonly tenants = new Shelf<CachedTenant>(MAX_TENANTS);
  /** By `<kind>\n<tenant_id>\n<query>`. */
  private readonly pages: Shelf<unknown>;
  /** The JSON bytes past which a page is not kept. */
  private readonly largestPage: number;
  private listening = false;
  /** Moves when the cache goes off or starts again; `announcements` per tenant moves with each of its announcements. */
  private epoch = 0;
  private readonly announcements = new Map<string, number>();
  private client: Client | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  private reconnects = 0;

  constructor(
    private readonly options: { url: string; log: Logger; heartbeat?: typeof HEARTBEAT; maxPageBytes?: number },
  ) {
    const maxPageBytes = options.maxPageBytes ?? MAX_PAGE_BYTES;
    this.pages = new Shelf<unknown>(MAX_PAGES, maxPageBytes);
    this.largestPage = maxPageBytes / LARGEST_PAGE_SHARE;
  }

  /** Starts listening; resolves once the first LISTEN is in place (or failed: the cache then stays off until it is). */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.off();
    await this.client?.end().catch(() => undefined);
  }

  /** Changes on every announcement of the tenant and whenever the cache goes off: compare before and after a read. */
  generation(tenantId: string): number {
    // Both only grow, so the sum moves whenever either does.
    return this.epoch + (this.announcements.get(tenantId) ?? 0);
  }

  get(tenantId: string, userId: string): CachedUser | undefined {
    return this.listening ? this.users.get(tenantId)?.get(userId) : undefined;
  }

  /** Keeps a user read from the database, unless the cache is off or something changed since `readAt` (a generation). */
  keep(user: CachedUser, readAt: number): void {
    if (this.current(user.tenant_id, readAt))
      shelfOf(this.users, user.tenant_id, MAX_USERS_PER_TENANT).set(user.id, user);
  }

  getTenant(tenantId: string): CachedTenant | undefined {
    return this.listening ? this.tenants.get(tenantId) : undefined;
  }

  /** Keeps a tenant read from the database, as `keep` keeps a user. */
  keepTenant(tenantId: string, tenant: CachedTenant, readAt: number): void {
    if (this.current(tenantId, readAt)) this.tenants.set(tenantId, tenant);
  }

  /** A page of the tenant's; `query` names it (its account, filters, sort, cursor and size). */
  getPage(kind: PageKind, tenantId: string, query: string): unknown {
    return this.listening ? this.pages.get(`${kind}\n${tenantId}\n${query}`) : undefined;
  }

  /**
   * Keeps a page read from the database, as `keep` keeps a user; `until` (ms) when it stops being true by itself.
   * Whether it was kept: not when its JSON is more than a share of the cache's bound.
   */
  keepPage(kind: PageKind, tenantId: string, query: string, page: unknown, readAt: number, until?: number): boolean {
    if (!this.current(tenantId, readAt)) return false;
    const json = Buffer.from(JSON.stringify(page));
    if (json.length > this.largestPage) return false;
    if (typeof page === 'object' && page !== null) jsonOfKeptPages.set(page, json);
    this.pages.set(`${kind}\n${tenantId}\n${query}`, page, until, json.length);
    return true;
  }

  /** The JSON bytes of the pages kept now: never more than the bound (`sentinel_read_cache_page_bytes`). */
  pageBytes(): number {
    return this.pages.bytes;
  }

  /**
   * Forgets the tenant, its callers and its pages at once, after a write by one of its callers through this process:
   * their next read must show it, and the database's announcement of it may still be on its way.
   */
  forgetTenant(tenantId: string): void {
    this.announced(tenantId);
    this.users.delete(tenantId);
    this.tenants.delete(tenantId);
    for (const kind of PAGE_KINDS) this.pages.deleteStartingWith(`${kind}\n${tenantId}\n`);
  }

  private current(tenantId: string, readAt: number): boolean {
    return this.listening && readAt === this.generation(tenantId);
  }

  // One counter per tenant that was ever announced: a number each, for as long as the process runs.
  private announced(tenantId: string): void {
    this.announcements.set(tenantId, (this.announcements.get(tenantId) ?? 0) + 1);
  }

  /** Every payload starts with the tenant's id (users: `<tenant_id>:<user_id>`). */
  private forget(channel: string, payload: string): void {
    const [tenantId, userId] = payload.split(':');
    if (!tenantId) return;
    this.announced(tenantId);
    const kinds = PAGES_OF_CHANNEL[channel];
    if (kinds) for (const kind of kinds) this.pages.deleteStartingWith(`${kind}\n${tenantId}\n`);
    else if (channel === TENANT_CHANGED_CHANNEL) this.tenants.delete(tenantId);
    else if (userId) this.users.get(tenantId)?.delete(userId);
  }

  private off(): void {
    this.listening = false;
    this.epoch += 1;
    this.clear();
  }

  private clear(): void {
    this.users.clear();
    this.tenants.clear();
    this.pages.clear();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // Named, so an operator (or a test) finds it in pg_stat_activity.
    const client = new Client({ connectionString: this.options.url, keepAlive: true, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', (message) => {
      if (message.payload) this.forget(message.channel, message.payload);
    });
    client.on('error', (err) => {
      this.options.log.warn({ err }, 'read cache: the listening connection failed; reads go to the database');
      this.retry(client);
    });
    client.on('end', () => this.retry(client));
    try {
      await client.connect();
      await client.query(CHANNELS.map((channel) => `listen ${channel}`).join('; '));
      // Anything kept before this LISTEN may have missed an announcement: start empty.
      this.clear();
      this.epoch += 1;
      this.listening = true;
      this.reconnects = 0;
      this.heartbeat = setInterval(
        () => void this.check(client),
        (this.options.heartbeat ?? HEARTBEAT).everyMs,
      ).unref();
    } catch (err) {
      this.options.log.warn({ err }, 'read cache: could not listen for changes; reads go to the database');
      this.retry(client);
    }
  }

  /** The listening connection answers within the heartbeat's timeout, or is replaced. */
  private async check(client: Client): Promise<void> {
    const { timeoutMs } = this.options.heartbeat ?? HEARTBEAT;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([client.query('select 1'), silent]);
    } catch (err) {
      this.options.log.warn({ err }, 'read cache: the listening connection does not answer; reads go to the database');
      this.retry(client);
    } finally {
      clearTimeout(timer);
    }
  }

  private retry(client: Client): void {
    if (this.client !== client) return; // that connection was replaced already
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.off();
    client.end().catch(() => undefined);
    if (this.closed) return;
    const delay = RECONNECT_MS[Math.min(this.reconnects, RECONNECT_MS.length - 1)]!;
    this.reconnects += 1;
    setTimeout(() => void this.connect(), delay).unref();
  }
}
