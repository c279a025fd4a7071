import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purchaseSignature } from "#platform/signatures.server";
import { query } from "#api/db/client";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { pdfPageCount, pdfStructure, pdfText } from "#tests/support/pdf";
import { startTestSmtp, type TestSmtp } from "#tests/support/smtp";
import {
  approveWithoutWebhook,
  buy,
  capture,
  couponCount,
  makeOption,
  newEmail,
  sandboxAction,
  saleStatus,
  startSale,
  validate,
} from "./_helpers";

let api: TestApi;
let smtp: TestSmtp;

const send = () => {
  const config = { ...api.config, SMTP_URL: smtp.url };
  return deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} });
};

async function outbox(email: string) {
  return query<{ kind: string; dedupe_key: string; status: string; send_after: Date | string; data: unknown }>(
    api.db,
    sql`SELECT kind, dedupe_key, status, send_after, data FROM mail_outbox WHERE recipient = ${email} ORDER BY kind`,
  );
}

beforeAll(async () => {
  api = await startTestApi();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

describe("purchase confirmation", () => {
  it("is queued by the capture that pays, once, with the feedback request days later", async () => {
    const option = await makeOption(api, { available: 10 });
    const email = newEmail("confirmacion");
    const { payment } = await buy(api, [{ option, quantity: 2 }], email);
    await capture(api, payment); // a reload of the success page
    const rows = await outbox(email);
    expect(rows.map((r) => r.kind)).toEqual(["feedback-request", "purchase-confirmation"]);
    expect(rows[1]).toMatchObject({ dedupe_key: `purchase:${payment.sale_id}`, status: "queued", data: { sale_id: payment.sale_id } });
    const days = (new Date(rows[0].send_after).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);
    expect(rows[0].data).toEqual({ offer_uuid: option.offerId });
  });

  it("is not queued for a declined payment", async () => {
    const option = await makeOption(api, { available: 10 });
    const email = newEmail("rechazado");
    const payment = await startSale(api, [{ option }], email);
    await sandboxAction(payment, "decline");
    expect((await capture(api, payment)).status).toBe(402);
    expect(await outbox(email)).toEqual([]);
  });

  it("shares the capture's transaction: if queueing fails, the sale is not paid", async () => {
    const option = await makeOption(api, { available: 10 });
    const email = newEmail("atomico");
    const payment = await startSale(api, [{ option }], email);
    await approveWithoutWebhook(api, payment.transaction_id);
    await api.db.execute(
      sql.raw(`
      CREATE FUNCTION refuse_mail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'buzón roto'; END $$`),
    );
    await api.db.execute(sql.raw(`CREATE TRIGGER refuse_mail BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION refuse_mail()`));
    try {
      expect((await capture(api, payment)).status).toBe(500);
      expect(await saleStatus(api, payment.sale_id)).toBe("pending");
      expect(await couponCount(api, payment.sale_id)).toBe(0);
    } finally {
      await api.db.execute(sql.raw(`DROP TRIGGER refuse_mail ON mail_outbox`));
      await api.db.execute(sql.raw(`DROP FUNCTION refuse_mail()`));
    }
    expect((await capture(api, payment)).status).toBe(200);
    expect((await outbox(email)).map((r) => r.kind)).toContain("purchase-confirmation");
  });

  it("arrives with every coupon code, the PDF vouchers and the signed link; no List-Unsubscribe", async () => {
    const gift = await makeOption(api, { available: 10 });
    const plain = await makeOption(api, { available: 10 });
    const email = newEmail("cupones");
    const lines = [{ option: gift, quantity: 2 }];
    const { body } = await validate(api, lines, email, { for_present: [gift.offerId] });
    const token = body.checkout_data.session_token;
    const created = await call(api, "/sales/create/", { body: { session_token: token } });
    const payment = created.body.payment;
    await sandboxAction(payment, "pay");
    const purchase = (await capture(api, payment)).body;
    const { purchase: second } = await buy(api, [{ option: plain }], email);
    const sent = await send();
    expect(sent.failed).toBe(0);
    expect(sent.sent).toBeGreaterThanOrEqual(2);

    const mail = await smtp.waitFor(email, { subject: new RegExp(payment.sale_id.slice(0, 8).toUpperCase()) });
    expect(mail.subject).toBe(`Tus cupones de ofertas · pedido ${payment.sale_id.slice(0, 8).toUpperCase()}`);
    const codes: string[] = purchase.items.flatMap((i: { coupons: string[] }) => i.coupons);
    expect(codes).toHaveLength(2);
    for (const code of codes) {
      expect(mail.html).toContain(code);
      expect(mail.text).toContain(code);
    }
    expect(mail.text).toContain(purchase.items[0].title);
    // When it was paid, on a Madrid clock (the API's process runs in UTC here, as on most hosts).
    const madrid = new Intl.DateTimeFormat("es-ES", {
      timeZone: "Europe/Madrid",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(purchase.paid_at));
    const utc = new Intl.DateTimeFormat("es-ES", { timeZone: "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
      new Date(purchase.paid_at),
    );
    expect(madrid).not.toBe(utc);
    expect(mail.text).toContain(`, ${madrid}.`);
    expect(mail.text).not.toContain(`, ${utc}.`);
    expect(mail.html).toContain("Total pagado");
    expect(mail.headers.has("list-unsubscribe")).toBe(false);
    expect(mail.headers.has("list-unsubscribe-post")).toBe(false);
    // A reply goes where the footer says to write, not to the no-reply sender.
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual([api.config.SUPPORT_EMAIL]);
    // Each condition on a line of its own, as the partner wrote them.
    const conditions = String(purchase.items[0].conditions ?? "")
      .split("\n")
      .filter((l) => l.trim());
    expect(conditions.length, "the demo offer lists several conditions").toBeGreaterThan(1);
    for (const [i, line] of conditions.entries()) {
      expect(mail.text).toMatch(new RegExp(`^${line.slice(0, 24).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"));
      if (i > 0) expect(mail.text).not.toContain(`${conditions[i - 1]} ${line}`);
    }

    const link = new URL(/https?:\/\/\S+\/order\/coupons\?[^\s"<>]+/.exec(mail.text ?? "")![0].replace(/&amp;/g, "&"));
    expect(link.searchParams.get("sale")).toBe(payment.sale_id);
    const opened = await call(api, `/sales/purchase/${payment.sale_id}/?sig=${encodeURIComponent(link.searchParams.get("sig")!)}`);
    expect(opened.status).toBe(200);
    expect(opened.body.items[0].coupons.sort()).toEqual([...codes].sort());

    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf.contentType).toBe("application/pdf");
    expect(pdf.filename).toMatch(/^cupones-[0-9a-f]{8}\.pdf$/);
    const textOfPdf = await pdfText(pdf.content);
    for (const code of codes) expect(textOfPdf).toContain(code);
    expect(await pdfPageCount(pdf.content)).toBe(2); // a page per coupon
    expect(textOfPdf).toContain("Regalo para");
    expect(textOfPdf).toContain(purchase.items[0].title.slice(0, 20));
    expect(textOfPdf).toMatch(/Validez/);

    // The other purchase is not a gift.
    const other = await smtp.waitFor(email, { subject: new RegExp(second.sale_id.slice(0, 8).toUpperCase()) });
    const otherText = await pdfText(other.attachments[0].content);
    expect(otherText).toContain(second.items[0].coupons[0]);
    expect(otherText).not.toContain("Regalo para");
  });
});

describe("the voucher PDF", () => {
  it("names the merchant, counts coupons across the whole order, shows the order number, and is tagged", async () => {
    const first = await makeOption(api, { available: 10 });
    const second = await makeOption(api, { available: 10 });
    const { payment } = await buy(api, [{ option: first, quantity: 2 }, { option: second }], newEmail("pdf"));
    const sig = purchaseSignature(api.config.sessionSecrets, payment.sale_id);
    const purchase = (await call(api, `/sales/purchase/${payment.sale_id}/?sig=${sig}`)).body;
    const pdf = Buffer.from(await (await fetch(`${api.url}/sales/purchase/${payment.sale_id}/vouchers.pdf?sig=${sig}`)).arrayBuffer());
    const pages = await pdfText(pdf).then((t) => t.split("\f"));
    expect(pages).toHaveLength(3);
    // One count for the order, not one per offer line.
    pages.forEach((page, i) => expect(page).toContain(`Cupón ${i + 1} de 3`));
    type Item = { merchant: string; coupons: string[] };
    const codeOn = (page: string) => (purchase.items as Item[]).flatMap((i) => i.coupons).find((c) => page.includes(c))!;
    expect(new Set(pages.map(codeOn)).size, "a page per coupon").toBe(3);
    for (const page of pages) {
      const item = (purchase.items as Item[]).find((i) => i.coupons.includes(codeOn(page)))!;
      expect(item.merchant.length).toBeGreaterThan(0);
      expect(page).toContain(`Lo canjea ${item.merchant}`);
      expect(page).toContain(`Pedido nº ${payment.sale_id.slice(0, 8).toUpperCase()}`);
    }
    const structure = await pdfStructure(pdf);
    expect(structure.marked).toBe(true);
    expect(structure.lang).toBe("es-ES");
    for (const [i, roles] of structure.pages.entries()) {
      expect(roles[0]).toBe("P");
      expect(roles).toContain("H1");
      expect(roles).toContain(`Figure: Código QR del cupón ${codeOn(pages[i])}`);
      expect(roles.filter((r) => r === "H2")).toHaveLength(3);
    }
  });
});

describe("the signed purchase link", () => {
  it("opens only with the right signature for that sale", async () => {
    const option = await makeOption(api, { available: 10 });
    const { payment } = await buy(api, [{ option }], newEmail("enlace"));
    const other = await buy(api, [{ option }], newEmail("otro"));
    const sig = purchaseSignature(api.config.sessionSecrets, payment.sale_id);
    expect((await call(api, `/sales/purchase/${payment.sale_id}/?sig=${sig}`)).status).toBe(200);
    expect((await call(api, `/sales/purchase/${other.payment.sale_id}/?sig=${sig}`)).status).toBe(404);
    expect((await call(api, `/sales/purchase/${payment.sale_id}/?sig=${sig.slice(0, -2)}xx`)).status).toBe(404);
    expect((await call(api, `/sales/purchase/${payment.sale_id}/`)).status).toBe(404);
    expect((await call(api, `/sales/purchase/no-es-uuid/?sig=${sig}`)).status).toBe(404);
    const pdf = await fetch(`${api.url}/sales/purchase/${payment.sale_id}/vouchers.pdf?sig=${sig}`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(
      (await call(api, `/sales/purchase/${payment.sale_id}/?sig=${sig}`)).body.items[0].coupons[0],
    );
  });

  it("comes with the capture, for the success page: the same signature, and each line names its merchant", async () => {
    const option = await makeOption(api, { available: 10 });
    const { payment, purchase } = await buy(api, [{ option }], newEmail("exito"));
    expect(purchase.coupons_sig).toBe(purchaseSignature(api.config.sessionSecrets, payment.sale_id));
    expect(purchase.items[0].merchant).toEqual(expect.any(String));
    expect(purchase.items[0].merchant.length).toBeGreaterThan(0);
    const opened = await call(api, `/sales/purchase/${payment.sale_id}/?sig=${purchase.coupons_sig}`);
    expect(opened.status).toBe(200);
    expect(opened.body.items[0].merchant).toBe(purchase.items[0].merchant);
    // A second capture (reload, webhook) answers the same signature.
    expect((await capture(api, payment)).body.coupons_sig).toBe(purchase.coupons_sig);
  });
});

describe("how to book with the merchant", () => {
  it("reaches the buyer in the purchase, the mail (tel:, mailto:, https links) and the voucher PDF", async () => {
    const [offer] = await query<{ id: string; phone: string; email: string; website: string; conditions: string }>(
      api.db,
      sql`SELECT o.id, g.phone, g.email, g.website, o.conditions FROM offers o JOIN organizations g ON g.id = o.organization_id
          WHERE o.status = 'active' AND (o.valid_until IS NULL OR o.valid_until >= current_date)
            AND o.conditions ILIKE '%reserva previa por tel%' AND g.phone IS NOT NULL AND g.email IS NOT NULL AND g.website IS NOT NULL
          ORDER BY o.id LIMIT 1`,
    );
    expect(offer, "a demo offer asks to book by phone").toBeDefined();
    const option = await makeOption(api, { available: 10, offerId: offer.id });
    const email = newEmail("reservar");
    const { payment, purchase } = await buy(api, [{ option }], email);
    expect(purchase.items[0]).toMatchObject({ merchant_phone: offer.phone, merchant_email: offer.email, merchant_website: offer.website });

    const sent = await send();
    expect(sent.failed).toBe(0);
    const mail = await smtp.waitFor(email, { subject: new RegExp(payment.sale_id.slice(0, 8).toUpperCase()) });
    const dial = `tel:${offer.phone.replace(/[^\d+]/g, "")}`;
    expect(dial).toMatch(/^tel:\+34\d{9}$/);
    expect(mail.html).toContain(`href="${dial}"`);
    expect(mail.html).toContain(`href="mailto:${offer.email}"`);
    expect(mail.html).toContain(`href="https://${offer.website.replace(/^https?:\/\//, "")}"`);
    expect(mail.text).toContain("Reservar:");
    expect(mail.text).toMatch(/Reserva previa por tel/);
    expect(mail.text).toContain(offer.phone);
    expect(mail.text).toContain(offer.email);

    const voucher = await pdfText(mail.attachments[0].content);
    expect(voucher).toContain("Reservar: Reserva previa por tel");
    expect(voucher).toContain(`Teléfono: ${offer.phone}`);
    expect(voucher).toContain(`Correo: ${offer.email}`);
    expect(voucher).toContain(`Web: ${offer.website.replace(/^https?:\/\//, "").replace(/\/$/, "")}`);
  });
});
