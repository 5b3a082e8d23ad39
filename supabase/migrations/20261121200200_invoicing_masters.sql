-- Invoicing: master data (parties, categories, units, items).
--
-- Conventions for every resource table (see the tenancy migration):
-- * company_id defaults to the active company; RLS refuses any other.
-- * unique (company_id, id) is the company_id index and the target of composite foreign keys
--   (company_id, x_id) → x (company_id, id): a row can only reference rows of its own company.
--   Such constraints are named <table>_<column>_fkey so an error names the field.
-- * Money numeric(14,2) not null default 0; quantities numeric(14,3); rates numeric(5,2) 0–100.

create table invoicing.parties (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  type text not null default 'customer' check (type in ('customer', 'supplier', 'both')),
  phone text,
  email text,
  gstin varchar(15)
    check (gstin ~ '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][Z1-9ABD-J][0-9A-Z]$'),
  pan varchar(10),
  gst_type text check (gst_type in ('registered_regular', 'registered_composition',
    'unregistered', 'consumer', 'sez', 'overseas')),
  billing_address text,
  shipping_address text,
  city text,
  state text,
  state_code char(2) check (state_code ~ '^[0-9]{2}$'),
  pincode text,
  opening_balance numeric(14,2) not null default 0 check (opening_balance >= 0),
  opening_balance_type text not null default 'to_receive'
    check (opening_balance_type in ('to_receive', 'to_pay')),
  opening_balance_date date,
  credit_limit numeric(14,2) check (credit_limit >= 0),  -- null = no limit
  credit_days integer check (credit_days >= 0),
  loyalty_enabled boolean not null default false,
  loyalty_points numeric(12,2) not null default 0,  -- cached Σ of unexpired loyalty rows
  notes text,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  -- a GSTIN starts with its state's code
  constraint parties_gstin_state_code_check
    check (gstin is null or state_code is null or left(gstin, 2) = state_code)
);
create index parties_company_name_idx on invoicing.parties (company_id, name, id);
select app.invoicing_secure_table('parties', 'parties');

create table invoicing.categories (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  kind text not null default 'item' check (kind in ('item', 'expense')),
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id)
);
create unique index categories_company_name_key on invoicing.categories (company_id, lower(name));
create index categories_company_name_idx on invoicing.categories (company_id, name, id);
select app.invoicing_secure_table('categories', 'categories');

create table invoicing.units (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  short_name text not null check (length(trim(short_name)) > 0),
  uqc text,  -- GST unit quantity code: BOX, PCS, KGS, OTH…
  allow_decimal boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id)
);
create unique index units_company_short_name_key on invoicing.units (company_id, upper(short_name));
create index units_company_name_idx on invoicing.units (company_id, name, id);
select app.invoicing_secure_table('units', 'units');

create table invoicing.items (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  item_code text,  -- SKU
  barcode text,
  item_type text not null default 'goods' check (item_type in ('goods', 'service')),
  category_id uuid,
  hsn_code text check (hsn_code ~ '^[0-9]{4,8}$'),
  sale_price numeric(14,2) not null default 0,
  purchase_price numeric(14,2) not null default 0,
  sale_price_incl_tax boolean not null default false,
  purchase_price_incl_tax boolean not null default false,
  wholesale_price numeric(14,2) not null default 0,
  mrp numeric(14,2) not null default 0,
  discount_pct numeric(5,2) not null default 0 check (discount_pct between 0 and 100),
  gst_rate numeric(5,2) not null default 0 check (gst_rate between 0 and 100),
  cess_rate numeric(5,2) not null default 0 check (cess_rate between 0 and 100),
  primary_unit text,
  secondary_unit text,
  -- 1 primary = conversion_rate secondary (1 BOX = 10 PCS)
  conversion_rate numeric(14,4) not null default 1 check (conversion_rate > 0),
  opening_stock numeric(14,3) not null default 0,
  opening_stock_rate numeric(14,2) not null default 0,
  stock numeric(14,3) not null default 0,  -- in the primary unit; maintained by the service
  min_stock numeric(14,3) not null default 0,
  images text[] not null default '{}',
  track_stock boolean not null default true,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint items_category_id_fkey foreign key (company_id, category_id)
    references invoicing.categories (company_id, id) on delete set null (category_id)
);
create unique index items_company_item_code_key on invoicing.items (company_id, item_code)
  where item_code is not null;
create index items_company_name_idx on invoicing.items (company_id, name, id);
create index items_company_category_idx on invoicing.items (company_id, category_id);
select app.invoicing_secure_table('items', 'items');
