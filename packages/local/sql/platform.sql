-- Platform SQL: what hosted Supabase has built in and the local stack must provide before
-- the project's migrations run. Applied only locally (or to a DATABASE_URL without `auth`).
-- Idempotent so it can be re-applied on every start.

create extension if not exists pgcrypto with schema public;

do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end $$;

grant anon, authenticated, service_role to current_user;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;

-- ── auth ────────────────────────────────────────────────────────────────────────────────
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  confirmation_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{"provider":"email","providers":["email"]}',
  raw_user_meta_data jsonb not null default '{}',
  is_super_admin boolean,
  is_anonymous boolean not null default false,
  phone text default null,
  banned_until timestamptz,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users(id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data->>'email')) stored,
  unique (provider_id, provider)
);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users(id) on delete cascade,
  aal text not null default 'aal1',
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists sessions_user_id_idx on auth.sessions(user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean not null default false,
  parent varchar(255),
  session_id uuid references auth.sessions(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens(session_id);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens(parent);

-- Failed password grants, per (ip, email): the throttle's state must survive restarts and
-- be shared by every process, hence a table rather than memory.
create table if not exists auth.login_attempts (
  id bigserial primary key,
  ip text not null,
  email text not null,
  attempted_at timestamptz not null default now()
);
create index if not exists login_attempts_lookup_idx on auth.login_attempts(email, ip, attempted_at);
create index if not exists login_attempts_ip_idx on auth.login_attempts(ip, attempted_at);

create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
  to anon, authenticated, service_role;

-- ── realtime publication ───────────────────────────────────────────────────────────────
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end $$;

-- ── pg_net's interface (the local worker drains the queue like pg_net's bgworker) ─────────
create schema if not exists net;
grant usage on schema net to anon, authenticated, service_role;

create table if not exists net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null default '{}',
  body bytea,
  timeout_milliseconds integer not null default 5000
);

create unlogged table if not exists net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index if not exists _http_response_created_idx on net._http_response(created);

-- Both request kinds queue the same way: append the params to the URL, insert, wake the worker.
create or replace function net._enqueue(
  method text, url text, params jsonb, headers jsonb, body bytea, timeout_milliseconds integer
) returns bigint
language plpgsql volatile security definer set search_path = net, pg_catalog as $$
declare
  request_id bigint;
  full_url text := url;
  query text;
begin
  select string_agg(format('%s=%s', key, value), '&') into query from jsonb_each_text(params);
  if query is not null then
    full_url := full_url || case when position('?' in full_url) > 0 then '&' else '?' end || query;
  end if;
  insert into net.http_request_queue(method, url, headers, body, timeout_milliseconds)
  values (method, full_url, headers, body, timeout_milliseconds)
  returning id into request_id;
  -- Wake the worker right after commit (pg_net's worker polls; this saves the wait).
  perform pg_notify('net_http_request', request_id::text);
  return request_id;
end $$;

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql volatile security definer set search_path = net, pg_catalog as $$
  -- pg_net sends exactly these bytes: the jsonb's text form, UTF-8
  select net._enqueue('POST', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql volatile security definer set search_path = net, pg_catalog as $$
  select net._enqueue('GET', url, params, headers, null, timeout_milliseconds)
$$;

-- ── pg_cron's interface (the local scheduler runs cron.job like pg_cron's launcher) ──────
create schema if not exists cron;

create table if not exists cron.job (
  jobid bigserial primary key,
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport integer not null default 5432,
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text unique
);

create table if not exists cron.job_run_details (
  jobid bigint,
  runid bigserial primary key,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);

create or replace function cron.schedule(job_name text, schedule text, command text) returns bigint
language sql volatile as $$
  insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
  on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid
$$;

create or replace function cron.unschedule(job_name text) returns boolean
language sql volatile as $$
  with gone as (delete from cron.job where jobname = job_name returning 1)
  select exists (select from gone)
$$;
