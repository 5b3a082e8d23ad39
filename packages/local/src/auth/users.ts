// auth.users and auth.identities: creating email users, checking passwords, and the User JSON
// GoTrue returns. Passwords are hashed by pgcrypto's bcrypt inside Postgres, so the hashes are
// exactly what GoTrue writes (`$2a$10$…`) and no hashing library is needed in Node.
import type { ISql, JSONValue } from 'postgres';
import { AuthHttpError, userAlreadyExists } from './errors.ts';

type Db = ISql<{}>;

/** GoTrue stores every user under the nil instance id. */
const NIL_INSTANCE = '00000000-0000-0000-0000-000000000000';
const BCRYPT_COST = 10;

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  is_anonymous: boolean;
  banned_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
  email: string | null;
}

export interface UserWithIdentities {
  row: UserRow;
  identities: IdentityRow[];
}

const USER_COLUMNS = `id, aud, role, email, phone, email_confirmed_at, confirmation_sent_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, is_anonymous, banned_until, created_at, updated_at`;

/**
 * Inserts a confirmed email user and its email identity (autoconfirm, the CLI's default).
 * `on conflict do nothing` instead of catching 23505: a concurrent signup of the same address
 * waits for the other transaction and then reports the duplicate.
 */
export async function createEmailUser(
  db: Db,
  input: { email: string; password: string; data: Record<string, unknown> },
): Promise<string> {
  const [user] = await db<{ id: string }[]>`
    insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at,
                            last_sign_in_at, raw_app_meta_data, raw_user_meta_data)
    values (${NIL_INSTANCE}, 'authenticated', 'authenticated', ${input.email},
            public.crypt(${input.password}, public.gen_salt('bf', ${BCRYPT_COST})), now(), now(),
            '{"provider":"email","providers":["email"]}'::jsonb, ${db.json(input.data as JSONValue)})
    on conflict (email) do nothing
    returning id`;
  if (!user) throw userAlreadyExists();
  const identityData = { sub: user.id, email: input.email, email_verified: true, phone_verified: false };
  await db`
    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
    values (${user.id}, ${user.id}, ${db.json(identityData)}, 'email', now())`;
  return user.id;
}

/**
 * The id of the user with this email and password, or null. An unknown address still costs one
 * bcrypt round, so response time does not tell which addresses are registered.
 */
export async function verifyPassword(db: Db, email: string, password: string): Promise<string | null> {
  const [match] = await db<{ id: string; ok: boolean }[]>`
    select id, coalesce(encrypted_password = public.crypt(${password}, encrypted_password), false) as ok
    from auth.users
    where email = ${email} and deleted_at is null`;
  if (!match) {
    await db`select public.crypt(${password}, public.gen_salt('bf', ${BCRYPT_COST}))`;
    return null;
  }
  return match.ok ? match.id : null;
}

/** Refuses sign-in for users GoTrue would refuse even with the right password. */
export function assertCanSignIn(user: UserRow): void {
  if (user.banned_until && user.banned_until.getTime() > Date.now()) {
    throw new AuthHttpError(400, 'user_banned', 'User is banned');
  }
  if (user.email && !user.email_confirmed_at) {
    throw new AuthHttpError(400, 'email_not_confirmed', 'Email not confirmed');
  }
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db`update auth.users set last_sign_in_at = now() where id = ${userId}`;
  await db`update auth.identities set last_sign_in_at = now(), updated_at = now()
           where user_id = ${userId} and provider = 'email'`;
}

export async function loadUser(db: Db, userId: string): Promise<UserWithIdentities | null> {
  const [row] = await db.unsafe<UserRow[]>(
    `select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null`,
    [userId],
  );
  if (!row) return null;
  const identities = await db<IdentityRow[]>`
    select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
    from auth.identities where user_id = ${userId} order by created_at, id`;
  return { row, identities };
}

/** The User object of GoTrue's responses (bare on /user, nested in a Session). */
export function userJson({ row, identities }: UserWithIdentities) {
  return {
    id: row.id,
    aud: row.aud,
    role: row.role,
    email: row.email ?? '',
    email_confirmed_at: row.email_confirmed_at ?? undefined,
    phone: row.phone ?? '',
    confirmation_sent_at: row.confirmation_sent_at ?? undefined,
    confirmed_at: row.email_confirmed_at ?? undefined,
    last_sign_in_at: row.last_sign_in_at ?? undefined,
    app_metadata: row.raw_app_meta_data,
    user_metadata: row.raw_user_meta_data,
    identities: identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: identity.last_sign_in_at ?? undefined,
      created_at: identity.created_at,
      updated_at: identity.updated_at,
      email: identity.email ?? undefined,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
    is_anonymous: row.is_anonymous,
  };
}

export type UserJson = ReturnType<typeof userJson>;
