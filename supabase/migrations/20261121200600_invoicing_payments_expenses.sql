-- Invoicing: payments in/out, expenses and their settlements. Allocation of payments to
-- invoices and expense status derivation are business rules of a later migration.

create table invoicing.payments (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  type text not null default 'in' check (type in ('in', 'out')),
  payment_number text,
  date date not null default current_date,
  party_id uuid not null,
  party_name text,
  amount numeric(14,2) not null check (amount > 0),
  mode text not null default 'cash' check (mode in ('cash', 'upi', 'bank', 'cheque', 'card', 'other')),
  reference_no text,  -- UTR / cheque number
  invoice_id uuid,
  allocations jsonb not null default '[]' check (jsonb_typeof(allocations) = 'array'),  -- [{invoice_id, amount}]
  unallocated_amount numeric(14,2) not null default 0,  -- advance
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint payments_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete no action,  -- not RESTRICT: deleting the company cascades to both sides at once
  constraint payments_invoice_id_fkey foreign key (company_id, invoice_id)
    references invoicing.invoices (company_id, id) on delete set null (invoice_id)
);
create unique index payments_number_key on invoicing.payments (company_id, type, payment_number)
  where payment_number is not null;
create index payments_company_date_idx on invoicing.payments (company_id, date desc, created_at desc, id);
create index payments_company_party_idx on invoicing.payments (company_id, party_id);
create index payments_company_invoice_idx on invoicing.payments (company_id, invoice_id)
  where invoice_id is not null;
select app.invoicing_secure_table('payments', 'payments');

create table invoicing.expenses (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  expense_number text,
  date date not null default current_date,
  category_id uuid,
  category text,  -- name snapshot (or a free-text category)
  party_id uuid,
  party_name text,
  vendor_gstin varchar(15),
  description text,
  amount numeric(14,2) not null default 0,  -- taxable value
  gst_rate numeric(5,2) not null default 0 check (gst_rate between 0 and 100),
  place_of_supply char(2),
  cgst numeric(14,2) not null default 0,
  sgst numeric(14,2) not null default 0,
  igst numeric(14,2) not null default 0,
  gst_amount numeric(14,2) not null default 0,
  total numeric(14,2) not null default 0,
  itc_eligible boolean not null default false,  -- input tax credit may be claimed
  is_reverse_charge boolean not null default false,
  payment_mode text,
  amount_paid numeric(14,2) not null default 0 check (amount_paid >= 0),
  status text not null default 'unpaid' check (status in ('unpaid', 'partial', 'paid')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint expenses_category_id_fkey foreign key (company_id, category_id)
    references invoicing.categories (company_id, id) on delete set null (category_id),
  constraint expenses_party_id_fkey foreign key (company_id, party_id)
    references invoicing.parties (company_id, id) on delete set null (party_id)
);
create index expenses_company_date_idx on invoicing.expenses (company_id, date desc, created_at desc, id);
create index expenses_company_category_idx on invoicing.expenses (company_id, category_id);
create index expenses_company_party_idx on invoicing.expenses (company_id, party_id);
select app.invoicing_secure_table('expenses', 'expenses');

create table invoicing.expense_payments (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  expense_id uuid not null,
  date date not null default current_date,
  amount numeric(14,2) not null check (amount > 0),
  mode text,
  reference_no text,
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  constraint expense_payments_expense_id_fkey foreign key (company_id, expense_id)
    references invoicing.expenses (company_id, id) on delete cascade
);
create index expense_payments_company_date_idx on invoicing.expense_payments (company_id, date desc, created_at desc, id);
create index expense_payments_expense_idx on invoicing.expense_payments (company_id, expense_id);
select app.invoicing_secure_table('expense_payments', 'expense-payments');
