/** A flash sale on PostgreSQL with two processes: a thousand buyers for a hundred tickets. */
import type { Offer } from "./checkout";
import { figure } from "./support/figures";
import { fmtMs, getJson, heading, percentile, table } from "./support/helpers";
import { startServer, stop, type Server } from "./support/server";
import type { BenchSection } from "./support/section";

const FLASH_BUYERS = 1_000;
const FLASH_AT_ONCE = 200;
const FLASH_TICKETS = 100;

/** One buyer of the flash sale, from its own address; the ms of each step it reached. */
async function flashBuyer(origin: string, n: number, option: { uuid: string; price: string }) {
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const post = async (url: string, body: unknown) => {
    const t = performance.now();
    const r = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Forwarded-For": address },
      body: JSON.stringify(body),
    });
    return { status: r.status, json: (await r.json().catch(() => null)) as Record<string, unknown> | null, ms: performance.now() - t };
  };
  const steps: Record<string, number> = {};
  const validate = await post(`${origin}/api/v0/sales/validate/`, {
    items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
    checkout_data: { subs_agreement: true, email: `flash${n}@bench.test`, need_receipt: false, for_present: [] },
  });
  steps.validate = validate.ms;
  const token = (validate.json?.checkout_data as { session_token?: string } | undefined)?.session_token;
  if (validate.status !== 200 || !token || (validate.json?.errors as unknown[] | undefined)?.length)
    return { outcome: validate.status < 500 ? "sold-out" : `validate ${validate.status}`, steps };
  const create = await post(`${origin}/api/v0/sales/create/`, { session_token: token });
  steps.create = create.ms;
  const payment = create.json?.payment as { sale_id: string; transaction_id: string; redirect_url: string } | undefined;
  if (create.status !== 201 || !payment) return { outcome: create.status < 500 ? "sold-out" : `create ${create.status}`, steps };
  const t = performance.now();
  const pay = await fetch(payment.redirect_url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "X-Forwarded-For": address },
    body: "action=pay",
    redirect: "manual",
  });
  await pay.arrayBuffer();
  steps.pay = performance.now() - t;
  const capture = await post(`${origin}/api/v0/sales/capture/${payment.sale_id}/`, { transaction_id: payment.transaction_id });
  steps.capture = capture.ms;
  return { outcome: capture.status === 200 ? "paid" : `capture ${capture.status}`, steps };
}

/**
 * 1,000 buyers, 200 at a time, for one option with 100 tickets, on PostgreSQL with two processes;
 * beside it the database's own limit for one hot row: the same stock decrement done directly in
 * SQL by one process, one autocommit UPDATE after another.
 */
async function flashSale() {
  heading(`Flash sale (${FLASH_BUYERS} buyers, ${FLASH_AT_ONCE} at a time, ${FLASH_TICKETS} tickets, PostgreSQL, WEB_CONCURRENCY=2)`);
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!admin) {
    console.log("skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)");
    figure("flash sale paid/s", "not measured", "needs BENCH_DATABASE_URL", null);
    return;
  }
  const pg = (await import("pg")).default;
  const name = `ofertas_bench_flash_${process.pid}`;
  const adminSql = async (sqlText: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(sqlText);
    await c.end();
  };
  await adminSql(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  let server: Server | null = null;
  try {
    server = await startServer({ env: { DATABASE_URL: url.toString(), WEB_CONCURRENCY: "2" } });
    await db.connect();
    const offers = await getJson<{ results: { uuid: string }[] }>(`${server.origin}/api/v0/public/offers/?page_size=1`);
    const offer = await getJson<Offer>(`${server.origin}/api/v0/public/offers/${offers.results[0].uuid}/`);
    const option = offer.price_options[0];
    await db.query(`UPDATE price_options SET available = $2, per_customer = NULL WHERE id = $1`, [option.uuid, FLASH_TICKETS]);

    const results: Awaited<ReturnType<typeof flashBuyer>>[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: FLASH_AT_ONCE }, async () => {
        while (next < FLASH_BUYERS)
          results.push(await flashBuyer(server!.origin, next++, { uuid: option.uuid, price: option.actual_price }));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const paid = results.filter((r) => r.outcome === "paid").length;
    const soldOut = results.filter((r) => r.outcome === "sold-out").length;
    const other = results.filter((r) => r.outcome !== "paid" && r.outcome !== "sold-out");
    const stepP99 = (step: string) =>
      percentile(
        results.flatMap((r) => (r.steps[step] === undefined ? [] : [r.steps[step]])),
        99,
      );
    const slowest = Math.max(...results.flatMap((r) => Object.values(r.steps)));

    // The reference: one process, one hot row, one autocommit UPDATE after another.
    await db.query(`UPDATE price_options SET available = 1000000 WHERE id = $1`, [option.uuid]);
    let decrements = 0;
    const refStart = performance.now();
    while (performance.now() - refStart < 3_000) {
      await db.query(`UPDATE price_options SET available = available - 1 WHERE id = $1 AND available > 0`, [option.uuid]);
      decrements++;
    }
    const reference = decrements / ((performance.now() - refStart) / 1000);
    const perSecond = paid / seconds;
    console.log(
      table(
        ["metric", "value"],
        [
          ["paid / sold out / other", `${paid} / ${soldOut} / ${other.length}`],
          ["wall time", `${seconds.toFixed(2)} s`],
          ["paid sales/s", perSecond.toFixed(1)],
          [
            "p99 validate / create / «Pagar» (sandbox) / capture",
            ["validate", "create", "pay", "capture"].map((s) => fmtMs(stepP99(s))).join(" / "),
          ],
          ["slowest request", fmtMs(slowest)],
          ["reference: direct SQL decrements/s (1 process, 1 row)", reference.toFixed(0)],
          ["shop / reference", `${((perSecond / reference) * 100).toFixed(1)} %`],
        ],
      ),
    );
    if (other.length) console.log(`  other outcomes: ${[...new Set(other.map((o) => o.outcome))].join(", ")}`);
    figure(
      "flash sale: exactly 100 paid, no 5xx",
      `${paid} paid, ${other.length} other`,
      "100, 0",
      paid === FLASH_TICKETS && other.length === 0,
    );
    figure("flash sale paid sales/s", perSecond.toFixed(1), `≥ ⅓ of ${reference.toFixed(0)} (direct SQL)`, perSecond >= reference / 3);
    figure("flash sale p99 «Pagar»", fmtMs(stepP99("pay")), "slowest request < 5 s", slowest < 5_000);
  } finally {
    await db.end().catch(() => {});
    if (server) await stop(server);
    await adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

export const flash: BenchSection = { name: "flash", byDefault: false, onShop: false, run: flashSale };
