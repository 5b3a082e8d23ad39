-- Invoicing: documents (estimates, orders, challans) and their lines, recurring invoice
-- schedules, stock adjustments and the loyalty ledger. Their effects (stock, conversion,
-- recurring runs, loyalty balances) are business rules of later migrations.

create table invoicing.documents (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  doc_type text not null
    check (doc_type in ('estimate', 'sale_order', 'delivery_challan', 'purchase_order')),
  doc_number text,
  date date not null default current_date,
  valid_until date,
  party_id uuid,
  party_name text,
  party_gstin varchar(15),
  party_state text,
  place_of_supply char(2),
  subtotal numeric(14,2) not null default 0,
  discount_amount numeric(14,2) not null default 0,
  cgst numeric(14,2) not null default 0,
  sgst numeric(14,2) not null default 0,
  igst numeric(14,2) not null default 0,
  cess numeric(14,2) not null default 0,
  round_off numeric(6,2) not null default 0,
  total numeric(14,2) not null default 0,
  status text not null default 'open'
    check (status in ('open', 'accepted', 'converted', 'cancelled', 'expired')),
  converted_invoice_id uuid,
  source_document_id uuid,  -- sale order → delivery challan
  stock_applied boolean not null default false,  -- a challan that has moved stock
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  unique (company_id, doc_type, doc_number),
  constraint documents_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete no action,  -- not RESTRICT: deleting the company cascades to both sides at once
  constraint documents_converted_invoice_id_fkey foreign key (company_id, converted_invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (converted_invoice_id),
  constraint documents_source_document_id_fkey foreign key (company_id, source_document_id)
    references invoicing.documents (company_id, id) on delete set null (source_document_id)
);
create index documents_company_date_idx on invoicing.documents (company_id, date desc, created_at desc, id);
create index documents_company_type_date_idx on invoicing.documents (company_id, doc_type, date desc, id);
create index documents_company_party_idx on invoicing.documents (company_id, party_id);
select app.invoicing_secure_table('documents', 'documents');

create table invoicing.document_items (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  document_id uuid not null,
  item_id uuid,
  item_name text not null,
  hsn_code text,
  unit text,
  qty numeric(14,3) not null default 1 check (qty > 0),
  rate numeric(14,2) not null default 0,
  price_incl_tax boolean not null default false,
  discount_pct numeric(5,2) not null default 0 check (discount_pct between 0 and 100),
  discount_amount numeric(14,2) not null default 0,
  taxable_value numeric(14,2) not null default 0,
  gst_rate numeric(5,2) not null default 0 check (gst_rate between 0 and 100),
  cgst numeric(14,2) not null default 0,
  sgst numeric(14,2) not null default 0,
  igst numeric(14,2) not null default 0,
  cess_amount numeric(14,2) not null default 0,
  gst_amount numeric(14,2) not null default 0,
  amount numeric(14,2) not null default 0,
  base_qty numeric(14,3),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint document_items_document_id_fkey foreign key (company_id, document_id)
    references invoicing.documents (company_id, id) on delete cascade,
  constraint document_items_item_id_fkey foreign key (company_id, item_id)
    references invoicing.items (company_id, id) on delete set null (item_id)
);
create index document_items_document_idx on invoicing.document_items (company_id, document_id, sort_order, id);
create index document_items_company_sort_idx on invoicing.document_items (company_id, sort_order, id);
create index document_items_item_idx on invoicing.document_items (company_id, item_id)
  where item_id is not null;
select app.invoicing_secure_table('document_items', 'document-items');

create table invoicing.recurring_invoices (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  name text not null check (length(trim(name)) > 0),
  party_id uuid,
  template_invoice_id uuid,
  items jsonb not null default '[]' check (jsonb_typeof(items) = 'array'),
  frequency text not null default 'monthly'
    check (frequency in ('daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly')),
  interval_count integer not null default 1 check (interval_count > 0),
  start_date date not null default current_date,
  next_run_date date not null default current_date,
  end_date date,
  max_occurrences integer check (max_occurrences > 0),
  occurrences_generated integer not null default 0 check (occurrences_generated >= 0),
  last_run_date date,
  last_invoice_id uuid,
  due_days integer check (due_days >= 0),
  status text not null default 'active' check (status in ('active', 'paused', 'completed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint recurring_invoices_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete no action,  -- not RESTRICT: deleting the company cascades to both sides at once
  constraint recurring_invoices_template_invoice_id_fkey foreign key (company_id, template_invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (template_invoice_id),
  constraint recurring_invoices_last_invoice_id_fkey foreign key (company_id, last_invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (last_invoice_id),
  constraint recurring_invoices_end_after_start check (end_date is null or end_date >= start_date)
);
create index recurring_invoices_company_next_idx on invoicing.recurring_invoices (company_id, next_run_date, id);
-- the daily job's scan, across companies
create index recurring_invoices_due_idx on invoicing.recurring_invoices (next_run_date) where status = 'active';
select app.invoicing_secure_table('recurring_invoices', 'recurring-invoices');

alter table invoicing.invoices
  add constraint invoices_source_document_id_fkey foreign key (company_id, source_document_id)
    references invoicing.documents (company_id, id) on delete set null (source_document_id),
  add constraint invoices_recurring_invoice_id_fkey foreign key (company_id, recurring_invoice_id)
    references invoicing.recurring_invoices (company_id, id) on delete set null (recurring_invoice_id);
-- one invoice per schedule and run date: makes a re-run of the recurring job harmless
create unique index invoices_recurring_run_key on invoicing.invoices (company_id, recurring_invoice_id, date)
  where recurring_invoice_id is not null;
create index invoices_company_source_document_idx on invoicing.invoices (company_id, source_document_id)
  where source_document_id is not null;

create table invoicing.stock_adjustments (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  item_id uuid not null,
  date date not null default current_date,
  type text not null check (type in ('add', 'reduce', 'set')),
  qty numeric(14,3) not null check (qty >= 0),
  unit text,
  rate numeric(14,2) not null default 0,
  reason text,
  notes text,
  stock_before numeric(14,3),
  stock_after numeric(14,3),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint stock_adjustments_item_id_fkey foreign key (company_id, item_id)
    references invoicing.items (company_id, id) on delete cascade
);
create index stock_adjustments_company_date_idx on invoicing.stock_adjustments (company_id, date desc, created_at desc, id);
create index stock_adjustments_item_idx on invoicing.stock_adjustments (company_id, item_id);
select app.invoicing_secure_table('stock_adjustments', 'stock-adjustments');

create table invoicing.loyalty_transactions (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  party_id uuid not null,
  invoice_id uuid,
  type text not null check (type in ('earn', 'redeem', 'adjust', 'expire', 'reverse')),
  points numeric(12,2) not null default 0,  -- signed: redeem/expire are negative
  amount numeric(14,2) not null default 0,
  balance_after numeric(12,2),
  expiry_date date,
  date date not null default current_date,
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint loyalty_transactions_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete cascade,
  constraint loyalty_transactions_invoice_id_fkey foreign key (company_id, invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (invoice_id)
);
create index loyalty_transactions_company_date_idx on invoicing.loyalty_transactions (company_id, date desc, created_at desc, id);
create index loyalty_transactions_party_idx on invoicing.loyalty_transactions (company_id, party_id);
create index loyalty_transactions_invoice_idx on invoicing.loyalty_transactions (company_id, invoice_id)
  where invoice_id is not null;
select app.invoicing_secure_table('loyalty_transactions', 'loyalty-transactions');
