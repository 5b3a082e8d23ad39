// `npm run seed`: a demo user plus the demo data of each service, idempotent.
import type { Sql } from 'postgres';
import { seedInvoicing } from '../../invoicing/src/seed.ts';
import { seedSplitting } from '../../splitting/src/seed.ts';

export const DEMO_EMAIL = 'demo@ledgerbase.local';
export const DEMO_PASSWORD = 'demo-password';

/** Creates (or finds) the demo user; the password is bcrypt-hashed by pgcrypto as the auth server does. */
export async function ensureDemoUser(sql: Sql): Promise<string> {
  const [user] = await sql`
    insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data)
    values (${DEMO_EMAIL}, crypt(${DEMO_PASSWORD}, gen_salt('bf', 10)), now(), ${sql.json({ display_name: 'Demo User' })})
    on conflict (email) do update set email = excluded.email
    returning id`;
  await sql`
    insert into auth.identities (provider_id, user_id, identity_data, provider)
    values (${user.id}, ${user.id}, ${sql.json({ sub: user.id, email: DEMO_EMAIL })}, 'email')
    on conflict (provider_id, provider) do nothing`;
  return user.id;
}

export async function seedDemoData(sql: Sql): Promise<string[]> {
  const userId = await ensureDemoUser(sql);
  const splitting = await seedSplitting(sql, { userId });
  const invoicing = await seedInvoicing(sql, { userId });
  return [
    `Demo user: ${DEMO_EMAIL} / ${DEMO_PASSWORD} (id ${userId})`,
    ...splitting,
    `Invoicing: demo company ${invoicing.companyId}${invoicing.created ? ' created' : ' already present'}`,
  ];
}
