-- Invoicing: shared reports, webhook subscriptions and the (read-only) delivery log.
-- Delivery itself (outbox triggers, pg_net, retries) is a later migration.

create table invoicing.shared_reports (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  title text not null check (length(trim(title)) > 0),
  report_type text not null check (report_type in ('summary', 'gst-summary', 'stock', 'outstanding')),
  params jsonb not null default '{}' check (jsonb_typeof(params) = 'object'),  -- {from, to}
  shared_with_type text not null default 'email' check (shared_with_type in ('user', 'party', 'email')),
  user_id uuid references auth.users (id) on delete set null,
  party_id uuid,
  email text,
  -- unguessable link token; 24 random bytes
  token text not null unique default encode(public.gen_random_bytes(24), 'hex'),
  expires_at timestamptz,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint shared_reports_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete set null (party_id)
);
create index shared_reports_company_created_idx on invoicing.shared_reports (company_id, created_at desc, id);
select app.invoicing_secure_table('shared_reports', 'shared-reports');

create table invoicing.webhooks (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  url text not null check (url ~* '^https?://[^\s/]+'),
  -- the catalogue of GET /v1/webhooks/events, or '*' for all
  events text[] not null default '{*}' check (cardinality(events) > 0 and events <@ array[
    'invoice.created', 'invoice.updated', 'invoice.deleted', 'document.created',
    'document.updated', 'document.deleted', 'delivery_challan.issued', 'payment.created',
    'payment.updated', 'expense.created', 'stock.adjusted', 'item.created', 'item.updated',
    'party.created', 'party.updated', 'kot.created', 'store_order.created', 'report.generated',
    'ping', '*']::text[]),
  description text,
  is_active boolean not null default true,
  -- HMAC-SHA256 key for X-Service-Signature; random when the client sends none
  secret text not null default encode(public.gen_random_bytes(32), 'hex') check (length(secret) >= 8),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id)
);
create index webhooks_company_created_idx on invoicing.webhooks (company_id, created_at desc, id);
select app.invoicing_secure_table('webhooks', 'webhooks');

create table invoicing.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  webhook_id uuid not null,
  event text not null,
  payload jsonb,
  status_code integer,  -- null until a response (or on network error)
  response_snippet text check (length(response_snippet) <= 1024),
  error text,
  duration_ms integer,
  request_id bigint,  -- pg_net request id, to reconcile net._http_response
  attempt integer not null default 1 check (attempt > 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint webhook_deliveries_webhook_id_fkey foreign key (company_id, webhook_id)
    references invoicing.webhooks (company_id, id) on delete cascade
);
create index webhook_deliveries_company_created_idx on invoicing.webhook_deliveries (company_id, created_at desc, id);
create index webhook_deliveries_webhook_idx on invoicing.webhook_deliveries (company_id, webhook_id, created_at desc);
create index webhook_deliveries_request_idx on invoicing.webhook_deliveries (request_id) where request_id is not null;
select app.invoicing_secure_table('webhook_deliveries', 'webhook-deliveries', p_writable => false, p_log => false);
