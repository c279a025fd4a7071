/** Partners' offers: the dictionaries, an offer's status, and changes to an offer on sale waiting for staff. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CATEGORY_IDS, CATEGORY_LABELS } from "#rules/categories";
import { PROVINCES } from "#rules/regions";
import { priceOptions, saleItems } from "#api/db/schema";
import { call, type TestApi } from "#tests/support/api-server";
import { available, expectSpanish, newEmail, startSale } from "./_helpers";
import { activeOffer, callAs, png, uploadImage, withPartnerWorld, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

describe("GET /offers/dictionaries/", () => {
  it("lists the rules/ lists with Spanish labels, under both base paths", async () => {
    const { status, body } = await call(api, "/offers/dictionaries/");
    expect(status).toBe(200);
    expect(body.categories.map((c: any) => c.value)).toEqual([...CATEGORY_IDS]);
    expect(body.categories[2]).toEqual({ value: "restaurants", label: CATEGORY_LABELS.restaurants });
    expect(body.provinces).toHaveLength(PROVINCES.length);
    expect(body.provinces[0]).toEqual({ value: "Madrid", label: "Madrid" });
    expect(body.offer_types.map((t: any) => t.value)).toEqual(["regular", "subscription", "direct", "promo"]);
    expect(body.discount_types).toEqual([
      { value: "percent", label: "Porcentaje" },
      { value: "amount", label: "Importe por entrada" },
      { value: "fixed_price", label: "Precio fijo" },
    ]);
    expect(body.payment_flows.map((t: any) => t.value)).toEqual(["hosted", "redirect"]);
    const short = await fetch(`${api.origin}/v0/offers/dictionaries/`);
    expect(short.status).toBe(200);
    expect(await short.json()).toEqual(body);
  });
});

describe("offer status", () => {
  it("draft → pending_review → active ↔ paused → archived; only staff approve; sent back with a reason", async () => {
    const created = await callAs(api, "partnerA", "/offers/", { body: validOffer(w.orgA) });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("draft");
    const id = created.body.uuid;
    const patch = (who: "partnerA" | "staff", body: object) => callAs(api, who, `/offers/${id}/`, { method: "PATCH", body });

    // No cover yet: cannot be submitted.
    let r = await patch("partnerA", { status: "pending_review" });
    expect(r.status).toBe(409);
    expectSpanish(r.body.detail);
    expect((await uploadImage(api, "partnerA", { offer: id }, await png())).status).toBe(201);
    r = await patch("partnerA", { status: "active" });
    expect(r.status).toBe(409);
    r = await patch("partnerA", { status: "pending_review" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("pending_review");
    // Not in the shop while pending.
    expect((await call(api, `/public/offers/${id}/`)).status).toBe(404);
    r = await patch("partnerA", { status: "active" });
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/Solo el equipo/);
    r = await patch("staff", { status: "draft" });
    expect(r.status).toBe(400);
    r = await patch("staff", { status: "draft", review_note: "Falta el horario en las condiciones." });
    expect(r.body).toMatchObject({ status: "draft", review_note: "Falta el horario en las condiciones." });
    await patch("partnerA", { status: "pending_review" });
    r = await patch("staff", { status: "active" });
    expect(r.body).toMatchObject({ status: "active", review_note: null });
    expect((await call(api, `/public/offers/${id}/`)).status).toBe(200);
    const search = await call(api, `/public/offers/?search=${encodeURIComponent("degustación")}`);
    expect(search.body.results.map((o: any) => o.uuid)).toContain(id);
    r = await patch("partnerA", { status: "paused" });
    expect(r.body.status).toBe("paused");
    expect((await call(api, `/public/offers/${id}/`)).status).toBe(404);
    r = await patch("partnerA", { status: "active" });
    expect(r.body.status).toBe("active");
    r = await patch("partnerA", { status: "archived" });
    expect(r.body.status).toBe("archived");
    r = await patch("partnerA", { status: "active" });
    expect(r.status).toBe(409);
    r = await patch("partnerA", { title: "Otro título para la oferta" });
    expect(r.status).toBe(409);
  });

  it("a price change applies to the next buyer, never to tickets already reserved", async () => {
    const before = await available(api, w.optionA);
    const payment = await startSale(api, [{ option: { uuid: w.optionA, price: "59.90" }, quantity: 2 }], newEmail());
    const offer = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body;
    expect(offer.price_options[0].reserved).toBeGreaterThanOrEqual(2);
    const options = offer.price_options.map((o: any, i: number) => ({
      ...o,
      actual_price: i === 0 ? "49,90" : o.actual_price,
      available: i === 0 ? before - 2 : o.available,
    }));
    const r = await callAs(api, "partnerA", `/offers/${w.offerA}/`, { method: "PATCH", body: { price_options: options } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The offer is on sale: its new price waits for staff.
    expect(r.body.price_options[0].actual_price).toBe("59.90");
    const approved = await callAs(api, "staff", `/offers/revisions/${r.body.revision.uuid}/`, {
      method: "PATCH",
      body: { status: "approved" },
    });
    expect(approved.status).toBe(200);
    expect((await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.price_options[0].actual_price).toBe("49.90");
    const [line] = await api.db.select().from(saleItems).where(eq(saleItems.saleId, payment.sale_id));
    expect(line.unitPriceCents).toBe(5990);
    // Removing an option with sales is refused, and nothing else changes.
    const removed = await callAs(api, "partnerA", `/offers/${w.offerA}/`, { method: "PATCH", body: { price_options: options.slice(1) } });
    expect(removed.status).toBe(409);
    const [row] = await api.db.select().from(priceOptions).where(eq(priceOptions.id, w.optionA));
    expect(row.actualPrice).toBe("49.90");
  });

  it("validates offers in Spanish, field by field", async () => {
    const r = await callAs(api, "partnerA", "/offers/", {
      body: validOffer(w.orgA, { title: "x", price_options: [{ title: "Una", actual_price: "30", regular_price: "20", available: 1 }] }),
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toEqual(expect.arrayContaining(["title", "price_options.0.actual_price"]));
    expectSpanish(r.body.detail);
  });
});

describe("changes to an offer on sale wait for staff, and the shop keeps the approved version", () => {
  const form = (offer: Awaited<ReturnType<typeof activeOffer>>, extra: Record<string, unknown> = {}) =>
    validOffer(w.orgA, {
      price_options: offer.price_options.map(({ uuid, title, actual_price, regular_price, available, per_customer }) => ({
        uuid,
        title,
        actual_price,
        regular_price,
        available,
        per_customer,
      })),
      ...extra,
    });
  const patch = (who: "partnerA" | "staff", id: string, body: object) => callAs(api, who, `/offers/${id}/`, { method: "PATCH", body });
  const publicOffer = async (id: string) => (await call(api, `/public/offers/${id}/`)).body;
  const decide = (id: string, body: object, who: "staff" | "partnerA" = "staff") =>
    callAs(api, who, `/offers/revisions/${id}/`, { method: "PATCH", body });

  it("new words and prices wait as a revision, stock applies at once; staff approve and the shop changes", async () => {
    const offer = await activeOffer(api, "partnerA", w.orgA, { title: "Cena de temporada en la terraza" });
    const [two, four] = offer.price_options;
    const saved = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, {
      method: "PUT",
      body: form(offer, {
        title: "Cena de temporada renovada",
        description: "Ahora con postre de la casa.",
        conditions: "Reserva con 48 horas.",
        price_options: [
          { uuid: two.uuid, title: two.title, actual_price: "49,90", regular_price: two.regular_price, available: 45, per_customer: 4 },
          {
            uuid: four.uuid,
            title: four.title,
            actual_price: four.actual_price,
            regular_price: four.regular_price,
            available: 12,
            per_customer: null,
          },
          { title: "Menú para 6", actual_price: "150", regular_price: "260", available: 5, per_customer: null },
        ],
      }),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // The live offer is unchanged in what staff review; its tickets changed now.
    expect(saved.body).toMatchObject({
      status: "active",
      title: "Cena de temporada en la terraza",
      description: "Una cena larga y tranquila.",
    });
    expect(saved.body.price_options.map((o: any) => [o.title, o.actual_price, o.available])).toEqual([
      ["Menú para 2", "59.90", 45],
      ["Menú para 4", "109.00", 12],
    ]);
    const revision = saved.body.revision;
    expect(revision).toMatchObject({
      status: "pending",
      review_note: null,
      changes: {
        title: "Cena de temporada renovada",
        description: "Ahora con postre de la casa.",
        conditions: "Reserva con 48 horas.",
        price_options: [
          { uuid: two.uuid, title: "Menú para 2", actual_price: "49.90", regular_price: "90.00" },
          { uuid: null, title: "Menú para 6", actual_price: "150.00", regular_price: "260.00", available: 5, per_customer: null },
        ],
      },
      current: {
        title: "Cena de temporada en la terraza",
        description: "Una cena larga y tranquila.",
        conditions: "Reserva previa por teléfono.",
        price_options: [{ uuid: two.uuid, title: "Menú para 2", actual_price: "59.90", regular_price: "90.00" }],
      },
    });
    expect(Object.keys(revision.changes)).not.toContain("summary");

    // The shop: the approved version, its old price, not found by the new words.
    const shown = await publicOffer(offer.uuid);
    expect(shown.title).toBe("Cena de temporada en la terraza");
    expect(shown.price_options.map((o: any) => o.actual_price)).toEqual(["59.90", "109.00"]);
    const search = await call(api, `/public/offers/?search=${encodeURIComponent("renovada")}`);
    expect(search.body.results.map((o: any) => o.uuid)).not.toContain(offer.uuid);

    // Staff's queue has it, with the offer; the other business's partner sees nothing of it.
    const queue = await callAs(api, "staff", "/offers/revisions/?page_size=100");
    expect(queue.status).toBe(200);
    expect(queue.body.results.find((r: any) => r.uuid === revision.uuid)).toMatchObject({
      offer: { uuid: offer.uuid, title: "Cena de temporada en la terraza", organization: { uuid: w.orgA } },
    });
    expect((await callAs(api, "partnerB", "/offers/revisions/")).body.results.map((r: any) => r.uuid)).not.toContain(revision.uuid);
    expect((await callAs(api, "partnerA", "/offers/revisions/")).body.results.map((r: any) => r.uuid)).toContain(revision.uuid);
    // Only staff decide.
    expect((await decide(revision.uuid, { status: "approved" }, "partnerA")).status).toBe(403);
    expect((await callAs(api, "partnerB", `/offers/revisions/${revision.uuid}/`, { method: "DELETE" })).status).toBe(404);

    const approved = await decide(revision.uuid, { status: "approved" });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe("approved");
    const after = await publicOffer(offer.uuid);
    expect(after).toMatchObject({
      title: "Cena de temporada renovada",
      description: "Ahora con postre de la casa.",
      conditions: "Reserva con 48 horas.",
    });
    expect(after.price_options.map((o: any) => [o.title, o.actual_price, o.available])).toEqual([
      ["Menú para 2", "49.90", 45],
      ["Menú para 4", "109.00", 12],
      ["Menú para 6", "150.00", 5],
    ]);
    expect((await callAs(api, "partnerA", `/offers/${offer.uuid}/`)).body.revision).toBeNull();
    expect((await decide(revision.uuid, { status: "approved" })).status).toBe(409);
  });

  it("a new save replaces the waiting change, the same one keeps it; the partner withdraws it; staff reject it with a reason", async () => {
    const offer = await activeOffer(api, "partnerA", w.orgA, { title: "Masaje relajante de sesenta minutos" });
    const first = (await patch("partnerA", offer.uuid, { title: "Masaje relajante de noventa minutos" })).body.revision;
    expect(first.status).toBe("pending");
    // Dates, place and stock are no review matter: they apply, and the change waiting stays (and keeps its place).
    const dated = await patch("partnerA", offer.uuid, { valid_until: "2028-06-30", title: "Masaje relajante de noventa minutos" });
    expect(dated.body.valid_until).toBe("2028-06-30");
    expect(dated.body.revision.uuid).toBe(first.uuid);
    // Another title: a new revision; the first can no longer be approved.
    const second = (await patch("partnerA", offer.uuid, { title: "Masaje de noventa minutos con aceites" })).body.revision;
    expect(second.uuid).not.toBe(first.uuid);
    const stale = await decide(first.uuid, { status: "approved" });
    expect(stale.status).toBe(409);
    expectSpanish(stale.body.detail);
    // Back to the live title: nothing waits.
    expect((await patch("partnerA", offer.uuid, { title: "Masaje relajante de sesenta minutos" })).body.revision).toBeNull();
    // Withdrawn by the partner.
    const third = (await patch("partnerA", offer.uuid, { summary: "Un resumen nuevo y algo más largo que el anterior." })).body.revision;
    expect(third.changes).toEqual({ summary: "Un resumen nuevo y algo más largo que el anterior." });
    expect((await callAs(api, "partnerA", `/offers/revisions/${third.uuid}/`, { method: "DELETE" })).status).toBe(204);
    expect((await callAs(api, "partnerA", `/offers/${offer.uuid}/`)).body.revision).toBeNull();
    // Rejected by staff, with the reason the partner reads.
    const fourth = (await patch("partnerA", offer.uuid, { conditions: "Sin condiciones." })).body.revision;
    const noReason = await decide(fourth.uuid, { status: "rejected" });
    expect(noReason.status).toBe(400);
    expectSpanish(noReason.body.detail);
    expect((await decide(fourth.uuid, { status: "rejected", review_note: "Las condiciones deben decir el horario." })).status).toBe(200);
    const seen = (await callAs(api, "partnerA", `/offers/${offer.uuid}/`)).body;
    expect(seen.revision).toMatchObject({ uuid: fourth.uuid, status: "rejected", review_note: "Las condiciones deben decir el horario." });
    expect(seen.conditions).toBe("Reserva previa por teléfono.");
    expect((await publicOffer(offer.uuid)).title).toBe("Masaje relajante de sesenta minutos");
  });

  it("staff's own edits apply at once; a draft is edited directly; an archived offer's change is withdrawn", async () => {
    const offer = await activeOffer(api, "partnerA", w.orgA, { title: "Ruta en kayak por la costa" });
    const byStaff = await patch("staff", offer.uuid, { title: "Ruta en kayak por la costa brava" });
    expect(byStaff.body).toMatchObject({ title: "Ruta en kayak por la costa brava", revision: null });
    expect((await publicOffer(offer.uuid)).title).toBe("Ruta en kayak por la costa brava");

    const draft = (await callAs(api, "partnerA", "/offers/", { body: validOffer(w.orgA) })).body;
    expect((await patch("partnerA", draft.uuid, { title: "Un borrador con otro título" })).body).toMatchObject({
      title: "Un borrador con otro título",
      revision: null,
    });

    const waiting = (await patch("partnerA", offer.uuid, { title: "Ruta en kayak al atardecer" })).body.revision;
    expect((await patch("partnerA", offer.uuid, { status: "archived" })).body.revision).toBeNull();
    expect((await decide(waiting.uuid, { status: "approved" })).status).toBe(409);
  });

  it("removing every option on sale for new ones is refused: the offer would have nothing to sell until staff approve", async () => {
    const offer = await activeOffer(api, "partnerA", w.orgA);
    const r = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, {
      method: "PUT",
      body: form(offer, { price_options: [{ title: "Otra opción", actual_price: "10", regular_price: "20", available: 5 }] }),
    });
    expect(r.status).toBe(409);
    expectSpanish(r.body.detail);
    expect((await callAs(api, "partnerA", `/offers/${offer.uuid}/`)).body).toMatchObject({
      revision: null,
      price_options: [{ title: "Menú para 2" }, { title: "Menú para 4" }],
    });
    // Removing one of two (unsold) applies at once: it only sells less.
    const one = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, {
      method: "PUT",
      body: form(offer, { price_options: form(offer).price_options.slice(0, 1) }),
    });
    expect(one.status).toBe(200);
    expect(one.body.price_options).toHaveLength(1);
    expect(one.body.revision).toBeNull();
  });
});
