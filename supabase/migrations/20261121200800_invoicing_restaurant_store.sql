-- Invoicing: restaurant (areas, tables, kitchen order tickets, reservations) and the online
-- store (settings, published items, customers, orders and their lines).

create table invoicing.restaurant_areas (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id)
);
create index restaurant_areas_company_sort_idx on invoicing.restaurant_areas (company_id, sort_order, name, id);
select app.invoicing_secure_table('restaurant_areas', 'restaurant-areas');

create table invoicing.restaurant_tables (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  area_id uuid,
  name text not null check (length(trim(name)) > 0),
  seats integer check (seats > 0),
  status text not null default 'available'
    check (status in ('available', 'occupied', 'reserved', 'cleaning')),
  occupied_since timestamptz,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint restaurant_tables_area_id_fkey foreign key (company_id, area_id)
    references invoicing.restaurant_areas (company_id, id) on delete set null (area_id)
);
create index restaurant_tables_company_sort_idx on invoicing.restaurant_tables (company_id, sort_order, name, id);
create index restaurant_tables_area_idx on invoicing.restaurant_tables (company_id, area_id);
select app.invoicing_secure_table('restaurant_tables', 'restaurant-tables');

create table invoicing.kots (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  kot_number text,
  table_id uuid,
  order_type text not null default 'dine_in' check (order_type in ('dine_in', 'takeaway', 'delivery')),
  status text not null default 'pending'
    check (status in ('pending', 'preparing', 'ready', 'served', 'cancelled')),
  items jsonb not null default '[]' check (jsonb_typeof(items) = 'array'),  -- [{item_id, item_name, qty, notes}]
  invoice_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint kots_table_id_fkey foreign key (company_id, table_id)
    references invoicing.restaurant_tables (company_id, id) on delete set null (table_id),
  constraint kots_invoice_id_fkey foreign key (company_id, invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (invoice_id)
);
create index kots_company_created_idx on invoicing.kots (company_id, created_at desc, id);
create index kots_table_idx on invoicing.kots (company_id, table_id);
select app.invoicing_secure_table('kots', 'kots');

create table invoicing.reservations (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  customer_name text not null check (length(trim(customer_name)) > 0),
  phone text,
  party_id uuid,
  table_id uuid,
  reserved_at timestamptz not null,
  guests integer check (guests > 0),
  status text not null default 'booked'
    check (status in ('booked', 'seated', 'completed', 'cancelled', 'no_show')),
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint reservations_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete set null (party_id),
  constraint reservations_table_id_fkey foreign key (company_id, table_id)
    references invoicing.restaurant_tables (company_id, id) on delete set null (table_id)
);
create index reservations_company_reserved_idx on invoicing.reservations (company_id, reserved_at, id);
select app.invoicing_secure_table('reservations', 'reservations');

create table invoicing.store_settings (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  store_name text,
  slug text unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),  -- public store address: global
  is_enabled boolean not null default false,
  delivery_charge numeric(14,2) not null default 0 check (delivery_charge >= 0),
  min_order_amount numeric(14,2) not null default 0 check (min_order_amount >= 0),
  cod_enabled boolean not null default true,
  upi_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id),  -- singleton per company
  unique (company_id, id)
);
select app.invoicing_secure_table('store_settings', 'store-settings');

create table invoicing.store_items (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  item_id uuid not null,
  display_name text,
  price numeric(14,2) not null default 0 check (price >= 0),
  is_published boolean not null default true,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  unique (company_id, item_id),
  constraint store_items_item_id_fkey foreign key (company_id, item_id)
    references invoicing.items (company_id, id) on delete cascade
);
create index store_items_company_sort_idx on invoicing.store_items (company_id, sort_order, display_name, id);
select app.invoicing_secure_table('store_items', 'store-items');

create table invoicing.store_customers (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  phone text,
  email text,
  address text,
  party_id uuid,
  total_spent numeric(14,2) not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  unique (company_id, phone),
  constraint store_customers_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete set null (party_id)
);
create index store_customers_company_created_idx on invoicing.store_customers (company_id, created_at desc, id);
select app.invoicing_secure_table('store_customers', 'store-customers');

create table invoicing.store_orders (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  order_number text,
  store_customer_id uuid,
  customer_name text,
  phone text,
  address text,
  status text not null default 'pending'
    check (status in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')),
  payment_status text not null default 'pending' check (payment_status in ('pending', 'paid', 'refunded')),
  subtotal numeric(14,2) not null default 0,
  tax numeric(14,2) not null default 0,
  delivery_charge numeric(14,2) not null default 0,
  total numeric(14,2) not null default 0,
  invoice_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint store_orders_store_customer_id_fkey foreign key (company_id, store_customer_id)
    references invoicing.store_customers (company_id, id) on delete set null (store_customer_id),
  constraint store_orders_invoice_id_fkey foreign key (company_id, invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (invoice_id)
);
create index store_orders_company_created_idx on invoicing.store_orders (company_id, created_at desc, id);
create index store_orders_customer_idx on invoicing.store_orders (company_id, store_customer_id);
select app.invoicing_secure_table('store_orders', 'store-orders');

create table invoicing.store_order_items (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  store_order_id uuid not null,
  item_id uuid,
  item_name text not null,
  qty numeric(14,3) not null default 1 check (qty > 0),
  rate numeric(14,2) not null default 0,
  gst_rate numeric(5,2) not null default 0 check (gst_rate between 0 and 100),
  amount numeric(14,2) not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint store_order_items_store_order_id_fkey foreign key (company_id, store_order_id)
    references invoicing.store_orders (company_id, id) on delete cascade,
  constraint store_order_items_item_id_fkey foreign key (company_id, item_id)
    references invoicing.items (company_id, id) on delete set null (item_id)
);
create index store_order_items_order_idx on invoicing.store_order_items (company_id, store_order_id);
create index store_order_items_company_created_idx on invoicing.store_order_items (company_id, created_at desc, id);
select app.invoicing_secure_table('store_order_items', 'store-order-items');
