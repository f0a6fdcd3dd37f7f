import { sql } from 'kysely';
import { loadConfig } from '../config/config';
import { createDb, type Db } from '../db/client';
import { sealChannel } from '../security/channel-secrets';

// `npm run seal-channel-secrets`: seals the channel secrets (Slack webhook URLs, PagerDuty routing keys) that
// rules and deliveries stored in clear before secrets were sealed at rest. Run it once after deploying that
// release, with the service's configuration (DATABASE_URL, and DATA_ENCRYPTION_KEY or JWT_SECRET). Idempotent:
// sealed secrets are left as they are; the service reads both forms meanwhile.

const BATCH = 500;

/** A channel secret still in clear, in SQL over one jsonb channel `c`. */
const clearSecret = (c: string) =>
  sql.raw(`((${c}->>'webhook_url') is not null and (${c}->>'webhook_url') not like 'sealed:%')
  or ((${c}->>'routing_key') is not null and (${c}->>'routing_key') not like 'sealed:%')`);

/** Seals every clear secret in alert rules and alert deliveries, in batches; answers how many rows changed. */
export async function sealLegacyChannelSecrets(db: Db, key: Buffer): Promise<{ rules: number; deliveries: number }> {
  let rules = 0;
  for (;;) {
    const rows = await db
      .selectFrom('alert_rules')
      .select(['id', 'channels'])
      .where(sql<boolean>`exists (select 1 from jsonb_array_elements(channels) c where ${clearSecret('c')})`)
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const channels = row.channels.map((c) => sealChannel(key, c));
      await db
        .updateTable('alert_rules')
        .set({ channels: JSON.stringify(channels) })
        .where('id', '=', row.id)
        .execute();
    }
    rules += rows.length;
    if (rows.length < BATCH) break;
  }
  let deliveries = 0;
  for (;;) {
    const rows = await db
      .selectFrom('alert_deliveries')
      .select(['id', 'channel'])
      .where(sql<boolean>`${clearSecret('channel')}`)
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      await db
        .updateTable('alert_deliveries')
        .set({ channel: JSON.stringify(sealChannel(key, row.channel)) })
        .where('id', '=', row.id)
        .execute();
    }
    deliveries += rows.length;
    if (rows.length < BATCH) break;
  }
  return { rules, deliveries };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb({ url: config.database.url, maxConnections: 1 });
  try {
    const { rules, deliveries } = await sealLegacyChannelSecrets(db, config.secrets.dataEncryptionKey);
    console.log(`Sealed the channel secrets of ${rules} alert rules and ${deliveries} deliveries.`);
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`Sealing failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
