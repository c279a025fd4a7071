/** Concurrent checkout: buyers race for scarce tickets; any ticket sold beyond stock fails the run. */
import { fmtMs, getJson, heading, percentile, postJson, table } from "./support/helpers";
import type { BenchSection } from "./support/section";

const BUYERS = Math.max(1, Number(process.env.BENCH_BUYERS ?? 40) || 40);

type PriceOption = { uuid: string; title: string; actual_price: string; available: number; per_customer: number | null };
export type Offer = { uuid: string; title: string; valid_until: string | null; price_options: PriceOption[] };
type Choice = { offer: Offer; option: PriceOption };
type Purchase = { status: string; items: { offer_uuid: string; option_title: string; coupons: string[] }[] };

type BuyerOutcome =
  | { kind: "paid"; ms: number; choice: Choice; coupons: number }
  | { kind: "sold_out"; at: "validate" | "create"; ms: number; choice: Choice }
  | { kind: "failed"; step: string; detail: string; ms: number; choice: Choice };

async function allOffers(origin: string): Promise<Offer[]> {
  const offers: Offer[] = [];
  let url: string | null = `${origin}/api/v0/public/offers/?page_size=100`;
  while (url) {
    const page: { next: string | null; results: Offer[] } = await getJson(url);
    offers.push(...page.results);
    url = page.next ? new URL(page.next, origin).toString() : null;
  }
  return offers;
}

function errorText(json: unknown): string {
  if (json && typeof json === "object") {
    const o = json as { errors?: { error_text?: string }[]; detail?: string };
    if (o.errors?.length) return o.errors.map((e) => e.error_text).join(" | ");
    if (o.detail) return o.detail;
  }
  return String(json).slice(0, 200);
}

async function buyer(origin: string, i: number, choice: Choice): Promise<BuyerOutcome> {
  const started = performance.now();
  const ms = () => performance.now() - started;
  const fail = (step: string, status: number, json: unknown): BuyerOutcome => ({
    kind: "failed",
    step,
    detail: `${status} ${errorText(json)}`,
    ms: ms(),
    choice,
  });

  const validate = await postJson(`${origin}/api/v0/sales/validate/`, {
    items: [{ offer_price_uuid: choice.option.uuid, quantity: 1, saved_price: choice.option.actual_price, slot_id: null, promo_codes: [] }],
    checkout_data: { subs_agreement: true, email: `buyer${i}@bench.test`, need_receipt: false, for_present: [] },
  });
  if (validate.status === 400 && /agotad|solo quedan/i.test(errorText(validate.json))) {
    return { kind: "sold_out", at: "validate", ms: ms(), choice };
  }
  const token = (validate.json as { checkout_data?: { session_token?: string } })?.checkout_data?.session_token;
  if (validate.status !== 200 || !token) return fail("validate", validate.status, validate.json);

  const create = await postJson(`${origin}/api/v0/sales/create/`, { session_token: token });
  if (create.status === 409) return { kind: "sold_out", at: "create", ms: ms(), choice };
  const payment = (create.json as { payment?: { sale_id: string; transaction_id: string; redirect_url: string } })?.payment;
  if (create.status !== 201 || !payment) return fail("create", create.status, create.json);

  const pay = await fetch(payment.redirect_url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: "pay" }).toString(),
    redirect: "manual",
  });
  await pay.arrayBuffer();
  if (pay.status !== 303 && pay.status !== 302) return fail("pay", pay.status, "sandbox page did not redirect");

  const capture = await postJson(`${origin}/api/v0/sales/capture/${payment.sale_id}/`, { transaction_id: payment.transaction_id });
  const purchase = capture.json as Purchase;
  if (capture.status !== 200 || purchase?.status !== "paid") return fail("capture", capture.status, capture.json);
  const coupons = purchase.items
    .filter((it) => it.offer_uuid === choice.offer.uuid && it.option_title === choice.option.title)
    .reduce((n, it) => n + it.coupons.length, 0);
  return { kind: "paid", ms: ms(), choice, coupons };
}

async function currentOption(origin: string, choice: Choice): Promise<PriceOption> {
  const offer = await getJson<Offer>(`${origin}/api/v0/public/offers/${choice.offer.uuid}/`);
  const option = offer.price_options.find((o) => o.uuid === choice.option.uuid);
  if (!option) throw new Error(`price option ${choice.option.uuid} vanished from offer ${choice.offer.uuid}`);
  return option;
}

/** Returns the number of tickets sold beyond what was available (0 is the only good answer). */
async function concurrentCheckout(origin: string): Promise<number> {
  heading(`Checkout (${BUYERS} concurrent buyers: validate → create → pay → capture)`);
  const today = new Date().toISOString().slice(0, 10);
  const eligible: Choice[] = (await allOffers(origin))
    .filter((o) => !o.valid_until || o.valid_until >= today)
    .flatMap((offer) => offer.price_options.map((option) => ({ offer, option })))
    .filter(({ option }) => option.available > 0 && (option.per_customer === null || option.per_customer >= 1));
  if (eligible.length === 0) throw new Error("no price option with stock to buy");

  // Most buyers fight over a scarce option (contention on the last tickets); the rest buy from a
  // deep one, so that completed orders/s measures the happy path too.
  const plentyBuyers = BUYERS >= 4 ? Math.floor(BUYERS / 4) : 0;
  const scarceBuyers = BUYERS - plentyBuyers;
  const bySmallest = [...eligible].sort((a, b) => a.option.available - b.option.available);
  const scarce = bySmallest.find((c) => c.option.available >= 2 && c.option.available < scarceBuyers) ?? bySmallest[0];
  const plenty = [...bySmallest].reverse().find((c) => c.option.uuid !== scarce.option.uuid) ?? scarce;
  const choices = plentyBuyers > 0 && plenty !== scarce ? [scarce, plenty] : [scarce];

  const initial = new Map<string, number>();
  for (const c of choices) {
    const fresh = await currentOption(origin, c);
    c.option = fresh;
    initial.set(c.option.uuid, fresh.available);
  }
  for (const c of choices) {
    const who = c === scarce ? scarceBuyers : plentyBuyers;
    console.log(
      `${c === scarce ? "scarce" : "deep  "} option: «${c.offer.title}» / «${c.option.title}» — available ${c.option.available}, ` +
        `per customer ${c.option.per_customer ?? "∞"}, ${c.option.actual_price} € → ${who} buyers`,
    );
  }

  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: BUYERS }, (_, i) => {
      const choice = choices.length > 1 && i % 4 === 3 ? plenty : scarce;
      return buyer(origin, i, choice).catch((error: unknown): BuyerOutcome => ({
        kind: "failed",
        step: "network",
        detail: String(error),
        ms: performance.now() - started,
        choice,
      }));
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;

  const paid = outcomes.filter((o) => o.kind === "paid");
  const soldOut = outcomes.filter((o) => o.kind === "sold_out");
  const failed = outcomes.filter((o) => o.kind === "failed");
  const sequenceMs = paid.map((o) => o.ms);

  console.log(
    table(
      ["metric", "value"],
      [
        ["buyers", BUYERS],
        ["completed orders", paid.length],
        ["wall time", `${wallSeconds.toFixed(2)} s`],
        ["orders/s", (paid.length / wallSeconds).toFixed(1)],
        ["sequence p50 (completed)", paid.length ? fmtMs(percentile(sequenceMs, 50)) : "—"],
        ["sequence p99 (completed)", paid.length ? fmtMs(percentile(sequenceMs, 99)) : "—"],
        [
          "refused (sold out)",
          `${soldOut.length} (${soldOut.filter((o) => o.at === "validate").length} at validate, ${soldOut.filter((o) => o.at === "create").length} at create)`,
        ],
        ["other failures", failed.length],
      ],
    ),
  );
  if (failed.length) {
    const kinds = new Map<string, number>();
    for (const f of failed) kinds.set(`${f.step}: ${f.detail}`, (kinds.get(`${f.step}: ${f.detail}`) ?? 0) + 1);
    for (const [k, n] of [...kinds].slice(0, 5)) console.log(`  ${n}× ${k.slice(0, 160)}`);
  }

  let oversold = 0;
  const rows: (string | number)[][] = [];
  for (const c of choices) {
    const before = initial.get(c.option.uuid)!;
    const after = (await currentOption(origin, c)).available;
    const sold = paid.filter((o) => o.choice.option.uuid === c.option.uuid).reduce((n, o) => n + o.coupons, 0);
    const beyond = Math.max(0, sold - before);
    // Stock taken from the row must cover every coupon issued (the rest are open reservations).
    const uncounted = Math.max(0, sold - (before - after));
    oversold += beyond + uncounted;
    rows.push([c === scarce ? "scarce" : "deep", before, sold, after, before - after - sold, beyond, uncounted]);
  }
  console.log();
  console.log(table(["option", "initial", "coupons", "final", "held, unpaid", "beyond initial", "beyond stock taken"], rows));
  console.log(`tickets sold beyond available: ${oversold} → ${oversold === 0 ? "PASS" : "FAIL"}`);
  if (paid.length === 0) console.log("warning: no order completed, so the oversell check proves little");
  return oversold;
}

export const checkout: BenchSection = { name: "checkout", byDefault: true, onShop: true, run: (shop) => concurrentCheckout(shop.origin) };
