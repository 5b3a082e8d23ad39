// Demo data for the invoicing service (`npm run seed`): one company owned by the given user with
// a row in every resource, so every list endpoint returns something. Idempotent: a user who
// already has the demo company is left alone.
//
// It runs in one transaction with the user's claims and the new company set, exactly like an API
// request (but as the connecting role), so company_id defaults and the activity log's
// "who" work as they do for real writes.
import type { Sql, TransactionSql } from 'postgres';

export const DEMO_COMPANY_NAME = 'Demo Traders Pvt Ltd';

// Lines carry only what a user types (item, qty, rate, GST rate): the database's GST rules price
// them and total their invoice or document, as they do for API writes.
interface LineInput {
  itemId: string;
  name: string;
  hsn: string;
  unit: string;
  qty: number;
  rate: string;
  gstRate: number;
}

const lineRow = (l: LineInput, sortOrder: number) => ({
  item_id: l.itemId, item_name: l.name, hsn_code: l.hsn, unit: l.unit, qty: String(l.qty),
  rate: l.rate, gst_rate: String(l.gstRate), sort_order: sortOrder,
});

async function insert(tx: TransactionSql, table: string, row: Record<string, unknown>): Promise<string> {
  const [r] = await tx`insert into ${tx('invoicing.' + table)} ${tx(row as Record<string, string>)} returning id`;
  return r.id;
}

export async function seedInvoicing(sql: Sql, { userId }: { userId: string }): Promise<{ companyId: string; created: boolean }> {
  const [existing] = await sql`
    select c.id from invoicing.companies c
    join invoicing.memberships m on m.company_id = c.id and m.user_id = ${userId}
    where c.name = ${DEMO_COMPANY_NAME} and c.created_by = ${userId}
    limit 1`;
  if (existing) return { companyId: existing.id, created: false };

  const companyId = await sql.begin(async (tx) => {
    // who is acting (activity log) — the company is set below, once it exists
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: userId, role: 'authenticated' })}, true)`;
    const [company] = await tx`
      insert into invoicing.companies (name, created_by) values (${DEMO_COMPANY_NAME}, ${userId}) returning id`;
    await tx`insert into invoicing.memberships (company_id, user_id, role) values (${company.id}, ${userId}, 'owner')`;
    await tx`select set_config('app.company_id', ${company.id}, true)`;
    await seedRows(tx, company.id);
    return company.id as string;
  });
  return { companyId, created: true };
}

async function seedRows(tx: TransactionSql, companyId: string): Promise<void> {
  await insert(tx, 'business_profile', {
    business_name: DEMO_COMPANY_NAME, gstin: '27AAPFU0939F1ZV', state: 'Maharashtra', state_code: '27',
    address: '12 Market Road, Andheri East', city: 'Mumbai', pincode: '400069', phone: '+91 22 4000 1234',
    email: 'accounts@demotraders.example', bank_name: 'Demo Bank', account_number: '000123456789',
    ifsc: 'DEMO0001234', upi_id: 'demotraders@upi', invoice_prefix: 'INV-',
    terms: 'Payment due within 15 days.',
  });
  await insert(tx, 'licenses', {
    plan: 'trial', status: 'trial', starts_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });

  const electronics = await insert(tx, 'categories', { name: 'Electronics', kind: 'item' });
  await insert(tx, 'categories', { name: 'Stationery', kind: 'item' });
  const rentCategory = await insert(tx, 'categories', { name: 'Rent', kind: 'expense' });
  await insert(tx, 'units', { name: 'Pieces', short_name: 'PCS', uqc: 'PCS' });
  await insert(tx, 'units', { name: 'Box', short_name: 'BOX', uqc: 'BOX' });

  const acme = await insert(tx, 'parties', {
    name: 'Acme Retail', type: 'customer', phone: '9820012345', email: 'buy@acme.example',
    gstin: '27AABCA1234C1Z5', gst_type: 'registered_regular', city: 'Pune', state: 'Maharashtra',
    state_code: '27', credit_limit: '200000.00', credit_days: 15, loyalty_enabled: true,
  });
  const bengaluru = await insert(tx, 'parties', {
    name: 'Bengaluru Books', type: 'customer', phone: '9845098450', gstin: '29AABCT1332L1ZT',
    gst_type: 'registered_regular', city: 'Bengaluru', state: 'Karnataka', state_code: '29',
  });
  await insert(tx, 'parties', { name: 'Walk-in Customer', type: 'customer', gst_type: 'consumer', state: 'Maharashtra', state_code: '27' });
  const supplier = await insert(tx, 'parties', {
    name: 'Sharma Distributors', type: 'supplier', phone: '9811098110', gstin: '07AAACS1234D1Z2',
    gst_type: 'registered_regular', city: 'New Delhi', state: 'Delhi', state_code: '07',
    opening_balance: '15000.00', opening_balance_type: 'to_pay',
  });

  const items = {
    mouse: { name: 'Wireless Mouse', hsn: '8471', unit: 'PCS', rate: '799.00', gstRate: 18, purchase: '559.30' },
    cable: { name: 'USB-C Cable', hsn: '8544', unit: 'PCS', rate: '249.00', gstRate: 18, purchase: '174.30' },
    notebook: { name: 'A5 Notebook', hsn: '4820', unit: 'PCS', rate: '60.00', gstRate: 12, purchase: '42.00' },
    install: { name: 'Installation Service', hsn: '998719', unit: 'OTH', rate: '1500.00', gstRate: 18, purchase: '1050.00' },
  };
  const ids: Record<keyof typeof items, string> = {} as never;
  for (const [key, it] of Object.entries(items) as [keyof typeof items, (typeof items)[keyof typeof items]][]) {
    const service = key === 'install';
    ids[key] = await insert(tx, 'items', {
      name: it.name, item_code: `SKU-${key.toUpperCase()}`, item_type: service ? 'service' : 'goods',
      category_id: service ? null : electronics, hsn_code: it.hsn, sale_price: it.rate,
      purchase_price: it.purchase, gst_rate: String(it.gstRate),
      primary_unit: it.unit, opening_stock: service ? '0' : '100', stock: service ? '0' : '100',
      min_stock: service ? '0' : '10', track_stock: !service,
    });
  }
  const line = (key: keyof typeof items, qty: number) => ({ itemId: ids[key], qty, ...items[key] });

  // invoices: [number, type, party, party name, state, lines, fully paid at the counter?, days ago]
  const invoices: [string, string, string, string, string, LineInput[], boolean, number][] = [
    ['INV-0001', 'sale', acme, 'Acme Retail', 'Maharashtra', [line('mouse', 5), line('cable', 10)], true, 20],
    ['INV-0002', 'sale', bengaluru, 'Bengaluru Books', 'Karnataka', [line('notebook', 50)], false, 10],
    ['INV-0003', 'sale', acme, 'Acme Retail', 'Maharashtra', [line('install', 1), line('mouse', 2)], false, 2],
    ['SD/4471', 'purchase', supplier, 'Sharma Distributors', 'Delhi', [line('cable', 40)], false, 15],
  ];
  const invoiceIds: string[] = [];
  for (const [number, type, partyId, partyName, partyState, lineInputs, paidAtCounter, daysAgo] of invoices) {
    const invoiceId = await insert(tx, 'invoices', {
      type, invoice_number: number, date: isoDate(-daysAgo), due_date: isoDate(15 - daysAgo),
      party_id: partyId, party_name: partyName, party_state: partyState,
    });
    invoiceIds.push(invoiceId);
    for (const [i, l] of lineInputs.entries()) await insert(tx, 'invoice_items', { invoice_id: invoiceId, ...lineRow(l, i + 1) });
    // money received with the sale itself (status follows from it)
    if (paidAtCounter) await tx`update invoicing.invoices set amount_paid = total where id = ${invoiceId}`;
  }

  await insert(tx, 'payments', {
    type: 'in', payment_number: 'PAY-0001', date: isoDate(-5), party_id: bengaluru,
    party_name: 'Bengaluru Books', amount: '1680.00', mode: 'upi', reference_no: 'UTR4471002',
    invoice_id: invoiceIds[1],
  });
  const rent = await insert(tx, 'expenses', {
    expense_number: 'EXP-0001', date: isoDate(-7), category_id: rentCategory, category: 'Rent',
    description: 'Office rent', amount: '25000.00', gst_rate: '18', cgst: '2250.00', sgst: '2250.00',
    gst_amount: '4500.00', total: '29500.00', itc_eligible: true, payment_mode: 'bank',
  });
  await insert(tx, 'expense_payments', { expense_id: rent, date: isoDate(-7), amount: '29500.00', mode: 'bank', reference_no: 'NEFT-88120' });


  const estimate = await insert(tx, 'documents', {
    doc_type: 'estimate', doc_number: 'EST-0001', date: isoDate(-3), valid_until: isoDate(27),
    party_id: acme, party_name: 'Acme Retail', party_state: 'Maharashtra',
  });
  await insert(tx, 'document_items', { document_id: estimate, ...lineRow(line('mouse', 20), 1) });
  const challan = await insert(tx, 'documents', {
    doc_type: 'delivery_challan', doc_number: 'DC-0001', date: isoDate(-1), party_id: bengaluru,
    party_name: 'Bengaluru Books', party_state: 'Karnataka',
  });
  await insert(tx, 'document_items', { document_id: challan, ...lineRow(line('cable', 5), 1) });

  await insert(tx, 'recurring_invoices', {
    name: 'Monthly maintenance — Acme', party_id: acme, template_invoice_id: invoiceIds[2],
    frequency: 'monthly', start_date: isoDate(0), next_run_date: isoDate(30), due_days: 15,
  });
  await insert(tx, 'stock_adjustments', {
    item_id: ids.notebook, date: isoDate(-4), type: 'add', qty: '20', unit: 'PCS', rate: '42.00',
    reason: 'Found in storeroom', stock_before: '100', stock_after: '120',
  });
  await insert(tx, 'loyalty_transactions', {
    party_id: acme, invoice_id: invoiceIds[0], type: 'earn', points: '76', amount: '0',
    balance_after: '76', expiry_date: isoDate(345), date: isoDate(-20), notes: 'Earned on INV-0001',
  });
  await insert(tx, 'invoice_templates', { name: 'Classic GST', layout: 'gst_a4', theme_color: '#1f4e79', is_default: true });

  const ground = await insert(tx, 'restaurant_areas', { name: 'Ground floor', sort_order: 1 });
  await insert(tx, 'restaurant_areas', { name: 'Terrace', sort_order: 2 });
  const t1 = await insert(tx, 'restaurant_tables', { area_id: ground, name: 'T1', seats: 4, sort_order: 1, status: 'occupied', occupied_since: new Date().toISOString() });
  const t2 = await insert(tx, 'restaurant_tables', { area_id: ground, name: 'T2', seats: 2, sort_order: 2 });
  await insert(tx, 'kots', {
    kot_number: 'KOT-0001', table_id: t1, order_type: 'dine_in', status: 'preparing',
    items: tx.json([{ item_id: null, item_name: 'Masala Dosa', qty: 2, notes: 'less spicy' }]),
  });
  await insert(tx, 'reservations', {
    customer_name: 'R. Iyer', phone: '9867098670', table_id: t2, guests: 2, status: 'booked',
    reserved_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  });

  await insert(tx, 'store_settings', {
    store_name: 'Demo Traders Online', slug: `demo-${companyId.slice(0, 8)}`, is_enabled: true,
    delivery_charge: '49.00', min_order_amount: '199.00',
  });
  await insert(tx, 'store_items', { item_id: ids.mouse, display_name: 'Wireless Mouse', price: '899.00', sort_order: 1 });
  await insert(tx, 'store_items', { item_id: ids.notebook, display_name: 'A5 Notebook', price: '69.00', sort_order: 2 });
  const shopper = await insert(tx, 'store_customers', { name: 'Neha Kulkarni', phone: '9890098900', email: 'neha@example.com', address: 'Baner, Pune', total_spent: '947.00' });
  const order = await insert(tx, 'store_orders', {
    order_number: 'WEB-0001', store_customer_id: shopper, customer_name: 'Neha Kulkarni', phone: '9890098900',
    address: 'Baner, Pune', status: 'confirmed', payment_status: 'paid', subtotal: '761.86',
    tax: '137.14', delivery_charge: '49.00', total: '948.00',
  });
  await insert(tx, 'store_order_items', { store_order_id: order, item_id: ids.mouse, item_name: 'Wireless Mouse', qty: '1', rate: '761.86', gst_rate: '18', amount: '899.00' });

  await insert(tx, 'shared_reports', {
    title: 'GST summary for the accountant', report_type: 'gst-summary', shared_with_type: 'email',
    email: 'ca@example.com', params: tx.json({ from: isoDate(-30), to: isoDate(0) }),
  });
  // inactive: the demo must not send requests to a real address
  const hook = await insert(tx, 'webhooks', {
    url: 'https://example.com/ledgerbase-hook', events: ['invoice.created', 'payment.created'],
    description: 'Demo endpoint (disabled)', is_active: false,
  });
  await insert(tx, 'webhook_deliveries', {
    webhook_id: hook, event: 'ping', payload: tx.json({ event: 'ping', data: { id: hook } }),
    status_code: 200, response_snippet: 'ok', duration_ms: 84,
  });
}

function isoDate(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
