import { type Kysely, sql } from 'kysely';

// The account's Cost Anomaly Detection monitors are a Cost Explorer part of their own ('anomalyMonitors'), kept and
// reused like the costs and the anomalies (AWS bills every Cost Explorer request): the part column takes it. The
// constraint is only widened, so the previous release's processes keep working while they drain.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table cost_explorer_reads drop constraint cost_explorer_reads_part_check`.execute(db);
  await sql`alter table cost_explorer_reads add constraint cost_explorer_reads_part_check check (part in ('costs', 'anomalies', 'anomalyMonitors'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from cost_explorer_reads where part = 'anomalyMonitors'`.execute(db);
  await sql`alter table cost_explorer_reads drop constraint cost_explorer_reads_part_check`.execute(db);
  await sql`alter table cost_explorer_reads add constraint cost_explorer_reads_part_check check (part in ('costs', 'anomalies'))`.execute(
    db,
  );
}
