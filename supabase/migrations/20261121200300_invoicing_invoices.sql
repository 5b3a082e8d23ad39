-- Invoicing: invoices and their lines. GST totals, numbering, status derivation, payment
-- allocation and stock movements are business rules of a later migration (triggers on these
-- tables); the columns they need are all here. Foreign keys to documents, recurring invoices
-- and templates are added by the migrations that create those tables.

create table invoicing.invoices (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  type text not null default 'sale'
    check (type in ('sale', 'purchase', 'sale_return', 'purchase_return')),
  -- derived from total and amount_paid by the business rules (the client's value is ignored)
  status text not null default 'unpaid' check (status in ('unpaid', 'partial', 'paid')),
  invoice_number text,  -- sale types: ours, unique; purchase types: the supplier's number
  date date not null default current_date,
  due_date date,
  party_id uuid,  -- null = cash sale
  party_name text not null,  -- snapshot, as are party_gstin and party_state
  party_gstin varchar(15),
  party_state text,
  place_of_supply char(2),
  billing_address text,
  shipping_address text,
  is_reverse_charge boolean not null default false,
  original_invoice_id uuid,  -- returns: the invoice a credit/debit note refers to
  original_invoice_number text,
  original_invoice_date date,
  subtotal numeric(14,2) not null default 0,  -- Σ taxable value
  discount_amount numeric(14,2) not null default 0,
  cgst numeric(14,2) not null default 0,
  sgst numeric(14,2) not null default 0,
  igst numeric(14,2) not null default 0,
  cess numeric(14,2) not null default 0,
  round_off numeric(6,2) not null default 0,
  total numeric(14,2) not null default 0,
  amount_paid numeric(14,2) not null default 0 check (amount_paid >= 0),
  balance numeric(14,2) generated always as (total - amount_paid) stored,
  loyalty_points_redeemed numeric(12,2) not null default 0,
  loyalty_points_earned numeric(12,2) not null default 0,
  loyalty_amount numeric(14,2) not null default 0,
  source_document_id uuid,
  recurring_invoice_id uuid,
  template_id uuid,
  notes text,
  terms text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint invoices_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete no action,  -- not RESTRICT: deleting the company cascades to both sides at once
  constraint invoices_original_invoice_id_fkey foreign key (company_id, original_invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (original_invoice_id)
);
-- Our own numbers are unique per type; a supplier's numbers may repeat across suppliers.
create unique index invoices_number_key on invoicing.invoices (company_id, type, invoice_number)
  where type in ('sale', 'sale_return') and invoice_number is not null;
create index invoices_company_date_idx on invoicing.invoices (company_id, date desc, created_at desc, id);
create index invoices_company_status_date_idx on invoicing.invoices (company_id, status, date desc, id);
create index invoices_company_party_idx on invoicing.invoices (company_id, party_id);
create index invoices_company_original_idx on invoicing.invoices (company_id, original_invoice_id)
  where original_invoice_id is not null;
select app.invoicing_secure_table('invoices', 'invoices');

create table invoicing.invoice_items (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  invoice_id uuid not null,
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
  gst_amount numeric(14,2) not null default 0,  -- cgst + sgst + igst
  amount numeric(14,2) not null default 0,      -- line total including tax
  base_qty numeric(14,3),  -- qty in the item's primary unit
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint invoice_items_invoice_id_fkey foreign key (company_id, invoice_id)
    references invoicing.invoices (company_id, id) on delete cascade,
  constraint invoice_items_item_id_fkey foreign key (company_id, item_id)
    references invoicing.items (company_id, id) on delete set null (item_id)
);
create index invoice_items_invoice_idx on invoicing.invoice_items (company_id, invoice_id, sort_order, id);
create index invoice_items_company_sort_idx on invoicing.invoice_items (company_id, sort_order, id);
create index invoice_items_item_idx on invoicing.invoice_items (company_id, item_id)
  where item_id is not null;
select app.invoicing_secure_table('invoice_items', 'invoice-items');
