// GET api-settlements on a group of 1,000 members and 100,000 expenses: p50 through the gateway
// (auth, RLS session, SQL aggregation, settlement math, JSON) against the bare balance SQL
// (app.balance_cents) on the same database, same run. Target: gateway p50 ≤ 150 ms.
import postgres from 'postgres';
import { startBenchStack } from './_support.ts';

const MEMBERS = 1_000;
const EXPENSES = 100_000;
const SAMPLES = 30;

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(); // warm caches and pools
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function run(): Promise<void> {
  const stack = await startBenchStack();
  const sql = postgres(stack.databaseUrl, { onnotice: () => {}, max: 2 });
  try {
    const { token } = await stack.signUp('bench-splitting@example.com');
    const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await (await fetch(`${stack.url}/functions/v1/api-groups`, {
      method: 'POST', headers, body: JSON.stringify({ name: 'Bench group' }),
    })).json();
    const groupId: string = created.group_id;

    const build = performance.now();
    await sql`insert into group_members (group_id, name)
              select ${groupId}, 'Member ' || n from generate_series(2, ${MEMBERS}) n`;
    // 30 % shared by everyone, 70 % among 2–4 random members; amounts 1.00–500.00
    await sql`
      with m as (select array_agg(id order by id) as ids from group_members where group_id = ${groupId}),
      rows as (
        select n, random() as r, 1 + floor(random() * 3)::int as extra from generate_series(1, ${EXPENSES}) n
      )
      insert into expenses (group_id, paid_by, amount, description, split_among, category, created_at)
      select ${groupId},
             m.ids[1 + floor(random() * ${MEMBERS})::int],
             round((1 + random() * 499)::numeric, 2),
             'Expense ' || rows.n,
             case when rows.r < 0.3 then '{}'::uuid[]
                  else array(select distinct m.ids[1 + floor(random() * ${MEMBERS})::int]
                             from generate_series(0, rows.extra) g where g >= 0 and rows.n > 0) end,
             'food',
             now() - rows.n * interval '1 minute'
      from rows, m`;
    await sql`vacuum analyze expenses`;
    await sql`vacuum analyze group_members`;
    console.log(`built ${MEMBERS} members × ${EXPENSES} expenses in ${((performance.now() - build) / 1000).toFixed(1)} s`);

    const url = `${stack.url}/functions/v1/api-settlements?group_id=${groupId}`;
    let transfers = 0;
    const gateway = await time(async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`api-settlements answered ${res.status}: ${await res.text()}`);
      transfers = (await res.json()).settlements.length;
    });
    const bare = await time(() => sql`select * from app.balance_cents(${groupId})`);

    const g = p50(gateway);
    const b = p50(bare);
    console.log(`GET api-settlements (gateway)  p50 ${g.toFixed(1)} ms  (${transfers} transfers suggested)`);
    console.log(`app.balance_cents (bare SQL)   p50 ${b.toFixed(1)} ms`);
    console.log(`ratio gateway / bare SQL       ${(g / b).toFixed(2)}×   target p50 ≤ 150 ms: ${g <= 150 ? 'met' : 'MISSED'}`);
  } finally {
    await sql.end();
    await stack.close();
  }
}
