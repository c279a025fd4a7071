/** «Hazte socio» (POST /sales/become_partner/) and the demo partner. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { partnerLeads } from "#api/db/schema";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { startTestSmtp } from "#tests/support/smtp";
import { expectSpanish, newEmail } from "./_helpers";

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe("POST /sales/become_partner/", () => {
  const lead = {
    business_name: "Bar Pepe",
    contact_name: "Pepe Ruiz",
    email: "pepe@barpepe.es",
    phone: "912 345 678",
    province: "Sevilla",
    category: "restaurants",
    message: "Queremos publicar.",
  };

  it("stores the lead; a bot that fills the honeypot gets the same answer and nothing is stored", async () => {
    expect((await call(api, "/sales/become_partner/", { body: lead })).status).toBe(201);
    expect((await call(api, "/sales/become_partner/", { body: { ...lead, email: "bot@spam.es", website: "http://spam" } })).status).toBe(
      201,
    );
    const rows = await api.db.select().from(partnerLeads);
    expect(rows.map((r) => r.email)).toEqual(["pepe@barpepe.es"]);
    const bad = await call(api, "/sales/become_partner/", { body: { ...lead, email: "no", province: "Narnia" } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["email", "province"]);
  });

  it("mails the lead to BUSINESS_EMAIL (replying answers the applicant), and the applicant a confirmation in fixed words, once; a bot gets neither", async () => {
    const smtp = await startTestSmtp();
    try {
      const applicant = newEmail("socio").toLowerCase();
      // What a spammer would type to make the shop deliver a message to a stranger's address.
      const typed = {
        business_name: "Premio para ti https://premio.example",
        contact_name: "Has ganado un iPhone",
        phone: "912 345 678",
        message: 'Reclámalo en <a href="https://premio.example/x">premio.example/x</a>\ny menú del día.',
      };
      expect((await call(api, "/sales/become_partner/", { body: { ...lead, ...typed, email: applicant } })).status).toBe(201);
      expect(
        (await call(api, "/sales/become_partner/", { body: { ...lead, email: "robot@spam.es", website: "http://spam" } })).status,
      ).toBe(201);
      const config = { ...api.config, SMTP_URL: smtp.url };
      const sent = await deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} });
      expect(sent.failed).toBe(0);

      const team = await smtp.waitFor(api.config.BUSINESS_EMAIL, {
        subject: /Solicitud de socio: Premio para ti https:\/\/premio\.example \(Sevilla, Restaurantes\)/,
      });
      expect(team.replyTo?.value[0].address).toBe(applicant);
      for (const part of [team.text ?? "", team.html || ""]) {
        expect(part).toContain("Has ganado un iPhone");
        expect(part).toContain(applicant);
        expect(part).toContain("912 345 678");
        expect(part).toContain("menú del día");
      }
      const confirmation = await smtp.waitFor(applicant, { subject: /^Hemos recibido tu solicitud para publicar en ofertas$/ });
      expect(confirmation.text).toContain("Hemos recibido tu solicitud");
      for (const part of [confirmation.text ?? "", confirmation.html || "", confirmation.subject ?? ""]) {
        for (const words of ["premio", "Premio", "iPhone", "912 345 678", "menú del día", "Sevilla"]) expect(part).not.toContain(words);
      }
      // Its outbox row holds nothing the sender typed either.
      const [row] = await query<{ data: unknown }>(
        api.db,
        sql`SELECT data FROM mail_outbox WHERE kind = 'partner-lead-confirmation' AND recipient = ${applicant}`,
      );
      expect(row.data).toEqual({});
      expect(confirmation.replyTo?.value[0].address).toBe(api.config.BUSINESS_EMAIL);
      expect(confirmation.headers.has("list-unsubscribe")).toBe(false);
      // Another delivery pass sends nothing again, and the bot's address never got mail.
      expect((await deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} })).sent).toBe(0);
      expect(smtp.messages.filter((m) => m.envelopeTo.includes(applicant))).toHaveLength(1);
      expect(smtp.messages.filter((m) => m.envelopeTo.includes("robot@spam.es"))).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it("is rate-limited per applicant, with a Spanish 429", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(api, "/sales/become_partner/", { body: { ...lead, email: "insistente@bar.es" } })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await call(api, "/sales/become_partner/", { body: { ...lead, email: "insistente@bar.es" } });
    expectSpanish(limited.body.detail);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("demo partner", () => {
  it("logs in, belongs to two demo organisations and can verify the demo customer's coupons", async () => {
    const { DEMO_PARTNER, DEMO_CUSTOMER } = await import("#api/db/demo-accounts");
    const login = await call(api, "/auth/jwt/create/", { body: { email: DEMO_PARTNER.email, password: DEMO_PARTNER.password } });
    expect(login.status).toBe(200);
    const auth = { authorization: `JWT ${login.body.access}` };
    const orgs = await call(api, "/organizations/", { headers: auth });
    expect(orgs.body.results).toHaveLength(2);
    const [coupon] = await query<{ code: string }>(
      api.db,
      sql`SELECT c.code FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id WHERE s.email = ${DEMO_CUSTOMER.email} LIMIT 1`,
    );
    const v = await call(api, "/verification/coupon/", { body: { code: coupon.code }, headers: auth });
    expect(v.status).toBe(200);
    expect(v.body.state).toBe("valid");
  });
});
