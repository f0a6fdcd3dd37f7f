import { createDb } from '../db/client';
import { migrateDown, migrateToLatest } from '../db/migrate';

// `npm run migrate` brings the database at DATABASE_URL to the latest schema; `npm run migrate -- down`
// reverts the most recent migration. `npm start` migrates by itself; this is for other databases.
async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      'DATABASE_URL is not set. Example: DATABASE_URL=postgres://user:password@host:5432/sentinel npm run migrate',
    );
    return 2;
  }
  const direction = process.argv[2] ?? 'up';
  if (direction !== 'up' && direction !== 'down') {
    console.error(`Unknown argument "${direction}". Usage: npm run migrate [-- up|down]`);
    return 2;
  }
  const db = createDb({ url, maxConnections: 1 });
  try {
    const results = direction === 'down' ? await migrateDown(db) : await migrateToLatest(db);
    const nothing =
      direction === 'down'
        ? 'Nothing to undo: no migration has been applied.'
        : 'Nothing to do: the schema is up to date.';
    console.log(results.length > 0 ? results.join('\n') : nothing);
    return 0;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A refused connection to a host name with several addresses is an AggregateError with an empty message.
    const reason =
      err instanceof AggregateError
        ? err.errors.map(String).join('; ')
        : err instanceof Error
          ? err.message
          : String(err);
    console.error(`Migration failed: ${reason}`);
    process.exitCode = 1;
  },
);
