import { sql } from 'kysely';
import type { BenchEnvironment } from './environment';

/**
 * Inserts `count` signals for one account in SQL (fast), then times page 1 and page 100 of the signals
 * endpoint (limit 50), following next_token to reach page 100 the way a client would.
 */
export async function benchSignalPages(
  env: BenchEnvironment,
  {
    url,
    auth,
    awsAccountId,
    count,
    samples,
  }: {
    url: string;
    auth: Record<string, string>;
    awsAccountId: string;
    count: number;
    samples: number;
  },
) {
  const account = await env.db
    .selectFrom('accounts')
    .select(['id', 'tenant_id', 'first_scan_id'])
    .where('aws_account_id', '=', awsAccountId)
    .executeTakeFirstOrThrow();
  await sql`
    insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title, description, resource, region,
                         first_scan_id, detected_at, resolved_at)
    select 'sig_bench' || lpad(g::text, 8, '0'), ${account.tenant_id}, ${account.id}, 'iam.user_admin_access',
           'bench|' || g, 'iam', 'HIGH', 'Bench signal', 'Seeded for the benchmark', 'user-' || g, 'global',
           ${account.first_scan_id}, now() - make_interval(secs => g), now()
    from generate_series(1, ${count}) g`.execute(env.db);
  await sql`analyze signals`.execute(env.db);

  const get = async (token?: string) => {
    const pageUrl = `${url}/accounts/${awsAccountId}/signals?limit=50${token ? `&next_token=${encodeURIComponent(token)}` : ''}`;
    const res = await fetch(pageUrl, { headers: auth });
    return (await res.json()) as { next_token: string | null };
  };
  let token: string | undefined;
  for (let page = 1; page < 100; page++) token = (await get(token)).next_token ?? undefined;
  const page100Token = token;

  const time = async (t?: string) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < samples; i++) await get(t);
    return Number(process.hrtime.bigint() - started) / 1e6 / samples;
  };
  const page1Ms = await time();
  const page100Ms = await time(page100Token);
  console.log(`signals page 1: ${page1Ms.toFixed(2)} ms, page 100: ${page100Ms.toFixed(2)} ms (${count} signals)`);
  return { count, page1Ms, page100Ms };
}
