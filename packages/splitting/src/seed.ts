// Demo data for the splitting service (`npm run seed` calls this; the lead's CLI prints the
// returned lines). Idempotent: the demo group is found by name and creator and left alone on a
// second run. Runs as a superuser connection, so the database triggers still apply (codes,
// hashing, membership checks) but RLS does not.
import type { Sql } from 'postgres';

export const DEMO_GROUP_NAME = 'Weekend in Lisbon';
export const DEMO_SHARE_PASSWORD = 'pasteis';

export interface SeedSplittingOptions {
  /** The demo user (packages/local/src/seed.ts creates it for both services). */
  userId: string;
}

const OTHERS = ['Priya', 'Jonas', 'Mei'];

// [description, amount, payer index (0 = demo user), sharer indexes (empty = everyone), category, days ago]
const EXPENSES: [string, string, number, number[], string, number][] = [
  ['Airbnb in Alfama, 2 nights', '412.80', 0, [], 'accommodation', 6],
  ['Train from the airport', '27.60', 1, [], 'transport', 6],
  ['Dinner at Time Out Market', '96.45', 2, [], 'food', 5],
  ['Tram 28 tickets', '12.00', 3, [0, 3], 'transport', 5],
  ['Fado night', '80.00', 0, [0, 1, 2], 'entertainment', 4],
  ['Pastéis de nata (a dozen)', '14.40', 1, [], 'food', 4],
  ['Pharmacy: sunscreen', '18.99', 3, [3, 2], 'health', 3],
  ['Sintra day trip tickets', '124.00', 2, [], 'entertainment', 3],
  ['Groceries for breakfast', '33.17', 0, [], 'food', 2],
];

export async function seedSplitting(sql: Sql, { userId }: SeedSplittingOptions): Promise<string[]> {
  return sql.begin(async (tx) => {
    const [existing] = await tx`select id, code from expense_groups where name = ${DEMO_GROUP_NAME} and created_by = ${userId}`;
    if (existing) return describe(existing.code, false);

    const [group] = await tx`insert into expense_groups (name, created_by, share_password)
                             values (${DEMO_GROUP_NAME}, ${userId}, ${DEMO_SHARE_PASSWORD}) returning id, code`;
    const [profile] = await tx`select display_name from profiles where id = ${userId}`;
    const me = profile?.display_name ?? 'Demo User';
    const [owner] = await tx`insert into group_members (group_id, user_id, name) values (${group.id}, ${userId}, ${me}) returning id`;
    const members: string[] = [owner.id];
    await tx`insert into activity_log (group_id, member_id, action, details) values (${group.id}, ${owner.id}, 'GROUP_CREATED', ${`${me} created the group "${DEMO_GROUP_NAME}"`})`;
    for (const name of OTHERS) {
      const [m] = await tx`insert into group_members (group_id, name) values (${group.id}, ${name}) returning id`;
      members.push(m.id);
      await tx`insert into activity_log (group_id, member_id, action, details) values (${group.id}, ${owner.id}, 'MEMBER_JOINED', ${`${name} was added by ${me}`})`;
    }
    for (const [description, amount, payer, sharers, category, daysAgo] of EXPENSES) {
      const split = `{${sharers.map((i) => members[i]).join(',')}}`;
      await tx`insert into expenses (group_id, paid_by, amount, description, split_among, category, created_at)
               values (${group.id}, ${members[payer]}, ${amount}::numeric, ${description}, ${split}::uuid[], ${category},
                       now() - ${daysAgo} * interval '1 day')`;
      await tx`insert into activity_log (group_id, member_id, action, details)
               values (${group.id}, ${owner.id}, 'EXPENSE_CREATED', ${`${me} added "${description}" (${amount})`})`;
    }
    return describe(group.code, true);
  });
}

function describe(code: string, created: boolean): string[] {
  return [
    `Splitting: group "${DEMO_GROUP_NAME}" ${created ? 'created' : 'already present'} — join code ${code}, ` +
      `shared view password "${DEMO_SHARE_PASSWORD}" (POST /functions/v1/api-shared-view)`,
  ];
}
