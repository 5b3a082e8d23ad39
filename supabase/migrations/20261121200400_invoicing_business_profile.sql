-- Invoicing: the company's business profile (one row per company) and invoice templates.

create table invoicing.business_profile (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  business_name text not null check (length(trim(business_name)) > 0),
  gstin varchar(15)
    check (gstin ~ '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][Z1-9ABD-J][0-9A-Z]$'),
  state text,
  state_code char(2) check (state_code ~ '^[0-9]{2}$'),  -- drives the CGST/SGST vs IGST split
  address text,
  city text,
  pincode text,
  phone text,
  email text,
  composition_scheme boolean not null default false,
  logo_url text,
  bank_name text,
  account_number text,
  ifsc text,
  upi_id text,
  invoice_prefix text,
  round_off_enabled boolean not null default true,
  terms text,
  modules jsonb not null default '{}' check (jsonb_typeof(modules) = 'object'),
  loyalty jsonb not null
    default '{"earn_amount": 100, "point_value": 1, "min_redeem_points": 0, "expiry_days": 365}'
    check (jsonb_typeof(loyalty) = 'object'),
  settings jsonb not null
    default '{"challan_reduces_stock": true, "allow_negative_stock": true, "block_over_credit_limit": false}'
    check (jsonb_typeof(settings) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id),  -- singleton per company
  unique (company_id, id)
);
select app.invoicing_secure_table('business_profile', 'business-profile');

create table invoicing.invoice_templates (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  layout text not null default 'classic',  -- classic | gst_a4 | thermal_80 | … (open list)
  theme_color text,
  is_default boolean not null default false,
  show jsonb not null default '{}' check (jsonb_typeof(show) = 'object'),  -- field toggles
  header_text text,
  footer_text text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id)
);
create unique index invoice_templates_one_default_key on invoicing.invoice_templates (company_id)
  where is_default;
create index invoice_templates_company_name_idx on invoicing.invoice_templates (company_id, name, id);
select app.invoicing_secure_table('invoice_templates', 'invoice-templates');

alter table invoicing.invoices add constraint invoices_template_id_fkey
  foreign key (company_id, template_id)
  references invoicing.invoice_templates (company_id, id) on delete set null (template_id);
