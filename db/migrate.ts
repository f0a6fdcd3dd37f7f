import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, type Kysely, type MigrationResultSet, Migrator } from 'kysely';

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(__dirname, 'migrations') }),
  });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => `${r.direction} ${r.migrationName}: ${r.status}`);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}
