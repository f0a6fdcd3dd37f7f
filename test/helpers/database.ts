import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

export interface TestDatabase {
  db: Db;
  url: string;
  drop: () => Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run the tests through jest (test/setup/global-setup.ts)');
  return url;
}

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database for one suite, on the shared embedded PostgreSQL. */
export async function createTestDatabase({ migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `sentinel_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = adminUrl().replace(/\/[^/]*$/, `/${name}`);
  const db = createDb({ url, maxConnections: 5 });
  if (migrate) await migrateToLatest(db);
  return {
    db,
    url,
    drop: async () => {
      await db.destroy();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
