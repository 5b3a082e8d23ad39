-- Invoicing business rules, part 1: the pure pricing helpers every later rule uses (GST slabs,
-- state codes, the inter-state test, one line's money) and the constraints that name a field.
--
-- Rounding: numeric round(x, 2) rounds half away from zero, which for the non-negative amounts
-- of an invoice is the guide's "half-up to 2 dp per line".

-- ── legal GST slabs ────────────────────────────────────────────────────────────────────────
-- 0.1 (merchant exports) and 0.25 (rough diamonds) are real slabs too; 40 exists since
-- 22-Sep-2025. The constraints keep their old names (<table>_gst_rate_check), so the API's
-- error mapping names the field 'gst_rate'.
alter table invoicing.items drop constraint items_gst_rate_check,
  add constraint items_gst_rate_check check (gst_rate in (0, 0.1, 0.25, 3, 5, 12, 18, 28, 40));
alter table invoicing.invoice_items drop constraint invoice_items_gst_rate_check,
  add constraint invoice_items_gst_rate_check check (gst_rate in (0, 0.1, 0.25, 3, 5, 12, 18, 28, 40));
alter table invoicing.document_items drop constraint document_items_gst_rate_check,
  add constraint document_items_gst_rate_check check (gst_rate in (0, 0.1, 0.25, 3, 5, 12, 18, 28, 40));
alter table invoicing.expenses drop constraint expenses_gst_rate_check,
  add constraint expenses_gst_rate_check check (gst_rate in (0, 0.1, 0.25, 3, 5, 12, 18, 28, 40));

-- Quantities and money that can never be negative on a line (qty > 0 exists already).
alter table invoicing.invoice_items
  add constraint invoice_items_rate_check check (rate >= 0),
  add constraint invoice_items_discount_amount_check check (discount_amount >= 0);
alter table invoicing.document_items
  add constraint document_items_rate_check check (rate >= 0),
  add constraint document_items_discount_amount_check check (discount_amount >= 0);
alter table invoicing.items add constraint items_opening_stock_check check (opening_stock >= 0);
alter table invoicing.expenses add constraint expenses_amount_check check (amount >= 0);

-- ── state codes (GSTIN prefixes, india-compliance STATE_NUMBERS) ─────────────────────────────
-- Accepts a code ('27'), a name ('Maharashtra', any case) or null; unknown → null.
create or replace function app.invoicing_state_code(p_state text) returns char(2)
language sql immutable parallel safe set search_path = '' as $$
  select case
    when p_state is null or trim(p_state) = '' then null
    when trim(p_state) ~ '^[0-9]{2}$' then trim(p_state)::char(2)
    else (select s.code from (values
      ('01', 'jammu and kashmir'), ('02', 'himachal pradesh'), ('03', 'punjab'), ('04', 'chandigarh'),
      ('05', 'uttarakhand'), ('06', 'haryana'), ('07', 'delhi'), ('08', 'rajasthan'),
      ('09', 'uttar pradesh'), ('10', 'bihar'), ('11', 'sikkim'), ('12', 'arunachal pradesh'),
      ('13', 'nagaland'), ('14', 'manipur'), ('15', 'mizoram'), ('16', 'tripura'), ('17', 'meghalaya'),
      ('18', 'assam'), ('19', 'west bengal'), ('20', 'jharkhand'), ('21', 'odisha'),
      ('22', 'chhattisgarh'), ('23', 'madhya pradesh'), ('24', 'gujarat'),
      ('26', 'dadra and nagar haveli and daman and diu'), ('27', 'maharashtra'),
      ('29', 'karnataka'), ('30', 'goa'), ('31', 'lakshadweep islands'), ('32', 'kerala'),
      ('33', 'tamil nadu'), ('34', 'puducherry'), ('35', 'andaman and nicobar islands'),
      ('36', 'telangana'), ('37', 'andhra pradesh'), ('38', 'ladakh'), ('96', 'other countries'),
      ('97', 'other territory'),
      -- common spellings
      ('07', 'new delhi'), ('21', 'orissa'), ('31', 'lakshadweep'), ('34', 'pondicherry'),
      ('35', 'andaman and nicobar'), ('26', 'daman and diu'), ('26', 'dadra and nagar haveli'),
      ('05', 'uttaranchal')) s (code, name)
      where s.name = regexp_replace(lower(trim(p_state)), '\s*&\s*', ' and ', 'g') limit 1)
  end
$$;

-- ── the inter-state test ─────────────────────────────────────────────────────────────────────
-- pos = place_of_supply ?? party.state_code ?? code(party_state). Inter-state when pos differs
-- from the business's state_code, or the party is SEZ / overseas (zero-rated: always IGST).
-- Unknown pos or unknown business state → intra-state.
create or replace function app.invoicing_is_inter_state(
  p_company_id uuid, p_place_of_supply text, p_party_id uuid, p_party_state text
) returns boolean
language sql stable set search_path = '' as $$
  select coalesce(p.gst_type in ('sez', 'overseas'), false)
    or coalesce(
      coalesce(app.invoicing_state_code(p_place_of_supply), p.state_code,
               app.invoicing_state_code(p_party_state))
        <> (select b.state_code from invoicing.business_profile b where b.company_id = p_company_id),
      false)
  from (select) one
  left join invoicing.parties p on p.company_id = p_company_id and p.id = p_party_id
$$;

-- ── one line's money ─────────────────────────────────────────────────────────────────────────
-- net = qty×rate − discount (discount = discount_pct of qty×rate when a percentage is given,
-- else the discount_amount sent). Exclusive: taxable = net, gst = round2(taxable×rate/100).
-- Inclusive: taxable = round2(net/(1+(gst+cess)/100)), gst = net − taxable − cess.
-- amount = taxable + gst + cess (the line total includes tax). Intra: cgst = round2(gst/2),
-- sgst = gst − cgst; inter: igst = gst.
create type app.invoicing_line_money as (
  discount_amount numeric(14,2),
  taxable_value numeric(14,2),
  cgst numeric(14,2),
  sgst numeric(14,2),
  igst numeric(14,2),
  cess_amount numeric(14,2),
  gst_amount numeric(14,2),
  amount numeric(14,2)
);

create or replace function app.invoicing_price_line(
  p_qty numeric, p_rate numeric, p_discount_pct numeric, p_discount_amount numeric,
  p_gst_rate numeric, p_cess_rate numeric, p_incl boolean, p_inter boolean
) returns app.invoicing_line_money
language plpgsql immutable parallel safe set search_path = '' as $$
declare
  gross numeric := round(p_qty * p_rate, 2);
  disc numeric := case when coalesce(p_discount_pct, 0) > 0 then round(gross * p_discount_pct / 100, 2)
                       else coalesce(p_discount_amount, 0) end;
  net numeric := gross - disc;
  cess_rate numeric := coalesce(p_cess_rate, 0);
  taxable numeric;
  gst numeric;
  cess numeric;
  r app.invoicing_line_money;
begin
  if net < 0 then
    raise exception 'discount_amount (%) must not exceed qty × rate (%)', disc, gross
      using errcode = '23514', column = 'discount_amount';
  end if;
  if p_incl then
    taxable := round(net / (1 + (p_gst_rate + cess_rate) / 100), 2);
    cess := round(taxable * cess_rate / 100, 2);
    gst := net - taxable - cess;
  else
    taxable := net;
    gst := round(taxable * p_gst_rate / 100, 2);
    cess := round(taxable * cess_rate / 100, 2);
  end if;
  r.discount_amount := disc;
  r.taxable_value := taxable;
  r.cess_amount := cess;
  r.gst_amount := gst;
  if p_inter then
    r.cgst := 0; r.sgst := 0; r.igst := gst;
  else
    r.cgst := round(gst / 2, 2); r.sgst := gst - r.cgst; r.igst := 0;
  end if;
  r.amount := taxable + gst + cess;
  return r;
end $$;

-- Invoice status from its money (the client's value is never used): nothing due or paid within
-- half a paisa → paid; nothing paid → unpaid; else partial.
create or replace function app.invoicing_derive_status(p_total numeric, p_paid numeric) returns text
language sql immutable parallel safe set search_path = '' as $$
  select case
    when p_total <= 0 or p_paid >= p_total - 0.005 then 'paid'
    when p_paid <= 0 then 'unpaid'
    else 'partial'
  end
$$;

grant execute on function app.invoicing_state_code(text), app.invoicing_is_inter_state(uuid, text, uuid, text),
  app.invoicing_price_line(numeric, numeric, numeric, numeric, numeric, numeric, boolean, boolean),
  app.invoicing_derive_status(numeric, numeric) to authenticated, service_role;
