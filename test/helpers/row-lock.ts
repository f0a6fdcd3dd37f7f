import { sql } from 'kysely';
import { Client } from 'pg';
import type { Db } from '../../db/client';

/**
 * Row locks held in a transaction of their own, so a test can stop a writer at a chosen statement: the writer's
 * transaction waits there, uncommitted, until the lock is released.
 */
export class RowLock {
  private constructor(
    private readonly client: Client,
    private readonly pid: number,
  ) {}

  /** Opens a transaction on `url` and runs `statement`, which should lock the rows the writer will need. */
  static async hold(url: string, statement: string, params: unknown[]): Promise<RowLock> {
    const lock = await RowLock.begin(url);
    const locked = await lock.client.query(statement, params);
    if (locked.rowCount !== 1) {
      await lock.release();
      throw new Error(`the lock statement matched ${locked.rowCount} rows, not 1`);
    }
    return lock;
  }

  /**
   * Locks a whole table against reads and writes (ACCESS EXCLUSIVE): stops a session at its first plain
   * SELECT of the table, which row locks do not.
   */
  static async holdTable(url: string, table: string): Promise<RowLock> {
    const lock = await RowLock.begin(url);
    await lock.client.query(`lock table ${lock.client.escapeIdentifier(table)} in access exclusive mode`);
    return lock;
  }

  private static async begin(url: string): Promise<RowLock> {
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await client.query('begin');
    return new RowLock(client, (rows[0] as { pid: number }).pid);
  }

  /**
   * True once another session waits for this lock. Asked through another connection (`db`): inside the holding
   * transaction pg_stat_activity would be a snapshot taken at its first read.
   */
  async blocksSomeone(db: Db): Promise<boolean> {
    const { rows } = await sql<{ blocked: boolean }>`
      select exists (select 1 from pg_stat_activity where ${this.pid}::int = any(pg_blocking_pids(pid))) as blocked`.execute(
      db,
    );
    return rows[0]?.blocked === true;
  }

  /** Rolls back, letting the waiting writers through. */
  async release(): Promise<void> {
    await this.client.query('rollback').catch(() => undefined);
    await this.client.end();
  }
}
