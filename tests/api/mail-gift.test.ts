import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, madridDate } from "#rules/dates";
import { query } from "#api/db/client";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { pdfText } from "#tests/support/pdf";
import { startTestSmtp, type TestSmtp } from "#tests/support/smtp";
import { capture, makeOption, newEmail, sandboxAction, validate } from "./_helpers";

let api: TestApi;
let smtp: TestSmtp;

const send = () => {
  const config = { ...api.config, SMTP_URL: smtp.url };
  return deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} });
};

async function giftRows(saleId: string) {
  return query<{ kind: string; recipient: string; status: string; send_after: Date | string }>(
    api.db,
    sql`SELECT m.kind, m.recipient, m.status, m.send_after FROM mail_outbox m
        WHERE m.kind IN ('gift', 'gift-sent') AND m.data->>'sale_id' = ${saleId} ORDER BY m.kind`,
  );
}

/** Buys one option as a gift with these details, and pays. */
async function buyGift(gift: Record<string, unknown>) {
  const option = await makeOption(api, { available: 10, price: "37.50" });
  const buyer = newEmail("regala");
  const { body, status } = await validate(api, [{ option, quantity: 1 }], buyer, {
    gifts: [{ offer_uuid: option.offerId, ...gift }],
  });
  expect(status, JSON.stringify(body)).toBe(200);
  const created = await call(api, "/sales/create/", { body: { session_token: body.checkout_data.session_token } });
  const payment = created.body.payment;
  await sandboxAction(payment, "pay");
  const purchase = (await capture(api, payment)).body;
  return { option, buyer, payment, purchase };
}

beforeAll(async () => {
  api = await startTestApi();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

describe("gift mail", () => {
  it("goes to the recipient on its day (09:00 Madrid) and not before, once, with no price; the buyer is told", async () => {
    const tomorrow = addDays(madridDate(new Date()), 1);
    const recipient = newEmail("recibe");
    const { payment, buyer, purchase } = await buyGift({
      recipient_name: "Lucía",
      sender_name: "Tu hermana Marta",
      recipient_email: recipient,
      message: "¡Feliz cumpleaños!",
      send_on: tomorrow,
    });
    expect(purchase.items[0].gift).toMatchObject({
      recipient_name: "Lucía",
      sender_name: "Tu hermana Marta",
      message: "¡Feliz cumpleaños!",
      send_on: tomorrow,
      sent_at: null,
    });

    await send();
    let rows = await giftRows(payment.sale_id);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ["gift", "queued"],
      ["gift-sent", "queued"],
    ]);
    const at = new Date(rows[0].send_after);
    expect(madridDate(at)).toBe(tomorrow);
    expect(new Intl.DateTimeFormat("es-ES", { timeZone: "Europe/Madrid", hour: "numeric" }).format(at)).toBe("9");

    // Its hour comes (the outbox reads the database's clock; a day back is still ahead just after midnight).
    await api.db.execute(sql`UPDATE mail_outbox SET send_after = now() - interval '1 second'
      WHERE kind IN ('gift', 'gift-sent') AND data->>'sale_id' = ${payment.sale_id}`);
    await send();
    await send(); // a second worker pass (or process) sends nothing again
    rows = await giftRows(payment.sale_id);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);

    const mail = await smtp.waitFor(recipient, { subject: /regalo/ });
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(recipient))).toHaveLength(1);
    for (const body of [mail.html as string, mail.text ?? "", mail.raw.toString("latin1")]) {
      expect(body).not.toMatch(/€|37[,.]50/);
    }
    expect(mail.text).toContain("Lucía");
    expect(mail.text).toContain("¡Feliz cumpleaños!");
    expect(mail.text).toContain("Tu hermana Marta te ha regalado");
    const pdf = mail.attachments.find((a) => a.contentType === "application/pdf")!;
    const pdfWords = await pdfText(pdf.content);
    expect(pdfWords).toContain("Lucía");
    expect(pdfWords).toContain("De parte de: Tu hermana Marta");
    expect(pdfWords).not.toMatch(/€|37[,.]50/);

    // Its link opens the gift alone, without a price, in any browser (no account, no cookie).
    const link = /https?:\/\/[^\s"<>]+\/order\/coupons\?[^\s"<>]+/.exec(mail.text ?? "")![0].replaceAll("&amp;", "&");
    const params = new URL(link).searchParams;
    const page = await call(api, `/sales/purchase/${params.get("sale")}/?sig=${params.get("sig")}&gift=${params.get("gift")}`, {
      method: "GET",
    });
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).not.toMatch(/37[,.]50|regala/);

    await smtp.waitFor(buyer, { subject: /Tu regalo para Lucía/ });
    const after = await call(api, `/sales/purchase/${payment.sale_id}/?sig=${purchase.coupons_sig}`, { method: "GET" });
    expect(after.body.items[0].gift.sent_at).not.toBeNull();
  });

  it("without a day goes right after payment; without an email no mail at all", async () => {
    const recipient = newEmail("ya");
    const now = await buyGift({ recipient_name: "Pablo", recipient_email: recipient, message: "" });
    await send();
    await smtp.waitFor(recipient, { subject: /regalo/ });
    const none = await buyGift({ recipient_name: "Ana", message: "Para ti" });
    expect(await giftRows(none.payment.sale_id)).toEqual([]);
    expect(now.purchase.items[0].gift.recipient_email).toBe(recipient);
  });

  it("refuses a send day in the past or over a year ahead, and a bad email, in Spanish", async () => {
    const option = await makeOption(api, { available: 10 });
    const base = { offer_uuid: option.offerId, recipient_name: "Lucía", message: "" };
    const today = madridDate(new Date());
    for (const gift of [
      { ...base, recipient_email: "a@correo.es", send_on: addDays(today, -1) },
      { ...base, recipient_email: "a@correo.es", send_on: addDays(today, 400) },
      { ...base, recipient_email: "no-es-un-email" },
    ]) {
      const { status, body } = await validate(api, [{ option }], newEmail("mal"), { gifts: [gift] });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toMatch(/fecha de envío|email válido/);
    }
  });
});
