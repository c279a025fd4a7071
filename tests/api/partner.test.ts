import { request as httpRequest } from "node:http";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_IDS, CATEGORY_LABELS } from "#rules/categories";
import { PROVINCES } from "#rules/regions";
import { foldText } from "#rules/search";
import type { OfferImage } from "#contract/offers";
import { query } from "#api/db/client";
import { offerImages, partnerLeads, priceOptions, saleItems } from "#api/db/schema";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { startTestSmtp } from "#tests/support/smtp";
import { available, expectSpanish, newEmail, startSale } from "./_helpers";
import { PROMO_CODE_CHECKS } from "#rules/limits";
import { phonePhoto } from "#tests/support/photos";
import { activeOffer, as, callAs, couponsFor, makeWorld, newPartner, png, uploadImage, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
});
afterAll(() => api.close());

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

describe("POST /offers/images/", () => {
  it("turns a PNG into WebP at the card and page sizes, with width and height recorded", async () => {
    const r = await uploadImage(api, "partnerA", { offer: w.offerA, alt: "Sala" }, await png(1600, 1200));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ width: 800, height: 500, cover: false, logo: false, alt: "Sala" });
    expect(r.body.variants.map((v: any) => [v.width, v.height])).toEqual([
      [800, 500],
      [400, 250],
    ]);
    const file = await fetch(`${api.origin}${r.body.image_url}`);
    expect(file.headers.get("content-type")).toBe("image/webp");
    expect(file.headers.get("cache-control")).toMatch(/immutable/);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 800, 500]);
    // The offer's card names the 400×250 rendition as the picture's small copy.
    const [{ cards }] = await query<{ cards: string }>(api.db, sql`SELECT offer_cards(ARRAY[${w.offerA}]::uuid[], 1, false) AS cards`);
    const shown = (JSON.parse(cards)[0].images as OfferImage[]).find((i) => i.image_url === r.body.image_url);
    expect(shown?.small_url).toBe(r.body.variants[1].url);
  });

  it("accepts form-urlencoded with the picture in base64, and keeps one cover and one logo", async () => {
    const send = async (fields: Record<string, string>) => {
      const response = await fetch(`${api.url}/offers/images/`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(await import("./_partner")).as("partnerB") },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const data = `data:image/png;base64,${(await png(300, 300)).toString("base64")}`;
    const logo1 = await send({ offer: w.offerB, image: data, logo: "true" });
    expect(logo1.status, JSON.stringify(logo1.body)).toBe(201);
    expect(logo1.body).toMatchObject({ logo: true, width: 160, height: 160 });
    const logo2 = await send({ offer: w.offerB, image: data, logo: "on" });
    expect(logo2.status).toBe(201);
    const cover = await send({ offer: w.offerB, image: (await png()).toString("base64"), cover: "1" });
    expect(cover.status).toBe(201);
    const list = await callAs(api, "partnerB", `/offers/images/?offer=${w.offerB}`);
    expect(list.body.results.filter((i: any) => i.logo)).toHaveLength(1);
    expect(list.body.results.filter((i: any) => i.cover).map((i: any) => i.uuid)).toEqual([cover.body.uuid]);
  });

  it("refuses a file that is not a picture whatever its name, and one over 5 MB", async () => {
    const fake = await uploadImage(api, "partnerA", { offer: w.offerA }, Buffer.from("<?php echo 'hola'; ?>"), "foto.png", "image/png");
    expect(fake.status).toBe(400);
    expectSpanish(fake.body.detail);
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const tooBig = await uploadImage(api, "partnerA", { offer: w.offerA }, big);
    expect(tooBig.status).toBe(413);
    expectSpanish(tooBig.body.detail);
    const truncated = (await png()).subarray(0, 200);
    expect((await uploadImage(api, "partnerA", { offer: w.offerA }, truncated)).status).toBe(400);
    // Text the database cannot store, in the upload's own fields: a Spanish 400, not a 500.
    const nul = await uploadImage(api, "partnerA", { offer: w.offerA, alt: "Sala\u0000" }, await png());
    expect(nul.status).toBe(400);
    expectSpanish(nul.body.detail);
  });
});

describe("pictures from a phone, and what the upload route refuses", () => {
  const draft = async (who: "partnerA" | "partnerB" = "partnerA") => {
    const created = await callAs(api, who, "/offers/", { body: validOffer(who === "partnerA" ? w.orgA : w.orgB) });
    expect(created.status).toBe(201);
    return created.body.uuid as string;
  };
  const sendText = async (type: "json" | "form", fields: Record<string, string>) => {
    const response = await fetch(`${api.url}/offers/images/`, {
      method: "POST",
      headers: { "content-type": type === "json" ? "application/json" : "application/x-www-form-urlencoded", ...as("partnerA") },
      body: type === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it("takes a phone's photo of several MB as multipart, and as base64 in JSON or form-urlencoded", async () => {
    const offer = await draft();
    const photo = await phonePhoto();
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const multipart = await uploadImage(api, "partnerA", { offer, alt: "Terraza" }, photo, "IMG_2041.jpg", "image/jpeg");
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(201);
    expect(multipart.body).toMatchObject({ width: 800, height: 500, cover: true });
    // Near the limit, as base64: a third bigger than the file, far over the API's 100 KB for JSON.
    const large = await phonePhoto(3000, 2000, 95);
    expect(large.length).toBeGreaterThan(4 * 1024 * 1024);
    const json = await sendText("json", { offer, image: `data:image/jpeg;base64,${large.toString("base64")}` });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    const form = await sendText("form", { offer, image: photo.toString("base64"), alt: "Sala" });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    // Over 5 MB, in any of the three: the same Spanish 413.
    const tooBig = Buffer.concat([photo, Buffer.alloc(5 * 1024 * 1024 - photo.length + 10, 1)]);
    for (const answer of [
      await uploadImage(api, "partnerA", { offer }, tooBig, "grande.jpg", "image/jpeg"),
      await sendText("json", { offer, image: tooBig.toString("base64") }),
    ]) {
      expect(answer.status).toBe(413);
      expect(answer.body.detail).toBe("La imagen pesa más de 5 MB. Redúcela y vuelve a subirla.");
    }
  });

  it("asks who is calling before it reads the body: a stranger's 5 MB is refused before it has been sent", async () => {
    const offer = await draft();
    const first = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(`${api.url}/offers/images/`);
        const req = httpRequest(url, {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=foto", "content-length": String(5 * 1024 * 1024), ...headers },
        });
        // Only the first 64 KB go out: an answer can only come from a server that did not wait for the rest.
        req.write(
          `--foto\r\nContent-Disposition: form-data; name="offer"\r\n\r\n${offer}\r\n--foto\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n`,
        );
        req.write(Buffer.alloc(64 * 1024, 7));
        const timer = setTimeout(() => {
          req.destroy();
          reject(new Error("no answer before the body was sent"));
        }, 5_000);
        req.on("response", (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => {
            clearTimeout(timer);
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          });
        });
        req.on("error", () => {});
      });
    const anonymous = await first({});
    expect(anonymous.status).toBe(401);
    expectSpanish(anonymous.body.detail);
    expect((await first({ authorization: "JWT no.es.un-token" })).status).toBe(401);
    expect((await first(as("customer"))).status).toBe(403);
  });

  it("holds at most 20 pictures per offer, with a Spanish 409; deleting one makes room", async () => {
    const offer = await draft();
    // 19 already there (made directly: 19 uploads would only slow the suite).
    await api.db.insert(offerImages).values(
      Array.from({ length: 19 }, (_, i) => ({
        offerId: offer,
        imageUrl: `/images/demo/relleno-${i}.webp`,
        width: 800,
        height: 500,
        position: i,
      })),
    );
    const small = await png(400, 250);
    const twentieth = await uploadImage(api, "partnerA", { offer }, small);
    expect(twentieth.status, JSON.stringify(twentieth.body)).toBe(201);
    const refused = await uploadImage(api, "partnerA", { offer }, small);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe("Una oferta puede tener como máximo 20 imágenes. Borra alguna antes de subir otra.");
    expect((await callAs(api, "partnerA", `/offers/images/${twentieth.body.uuid}/`, { method: "DELETE" })).status).toBe(204);
    // Three at once for the one free place: one gets it.
    const race = await Promise.all([0, 1, 2].map(() => uploadImage(api, "partnerA", { offer }, small)));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const list = await callAs(api, "partnerA", `/offers/images/?offer=${offer}`);
    expect(list.body.results).toHaveLength(20);
  });

  it("stops serving an archived offer's pictures, and deletes a deleted offer's", async () => {
    const urls = async (offer: string) => {
      const r = await uploadImage(api, "partnerA", { offer, cover: "true" }, await png());
      expect(r.status).toBe(201);
      return r.body.variants.map((v: any) => v.url as string);
    };
    const status = (url: string) => fetch(`${api.origin}${url}`).then((r) => r.status);
    const archived = await draft();
    const archivedUrls = await urls(archived);
    for (const url of archivedUrls) expect(await status(url)).toBe(200);
    expect((await callAs(api, "partnerA", `/offers/${archived}/`, { method: "PATCH", body: { status: "archived" } })).status).toBe(200);
    for (const url of archivedUrls) expect(await status(url)).toBe(404);

    const deleted = await draft();
    const deletedUrls = await urls(deleted);
    expect(await status(deletedUrls[0])).toBe(200);
    expect((await callAs(api, "partnerA", `/offers/${deleted}/`, { method: "DELETE" })).status).toBe(204);
    for (const url of deletedUrls) expect(await status(url)).toBe(404);
    const [left] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM media_files WHERE offer_id = ${deleted}`);
    expect(Number(left.n)).toBe(0);
    // The live offers' pictures are still there.
    const live = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.images[0].image_url;
    expect(await status(live)).toBe(200);
  });
});

describe("coupons", () => {
  it("verifies a code with or without dashes, and redeems it once", async () => {
    const [code] = await couponsFor(
      api,
      w.optionB,
      (await callAs(api, "partnerB", `/offers/${w.offerB}/`)).body.price_options[0].actual_price,
      1,
    );
    const compact = code.replace(/-/g, "").toLowerCase();
    const v = await callAs(api, "partnerB", "/verification/coupon/", { body: { code: compact } });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ code, state: "valid", offer: { uuid: w.offerB }, option: { title: "Menú para 2" } });
    expect((await callAs(api, "partnerA", "/verification/coupon/", { body: { code } })).status).toBe(404);
    expect((await callAs(api, "partnerA", `/sales/redeem/${v.body.uuid}/`, { method: "POST" })).status).toBe(404);
    const first = await callAs(api, "partnerB", `/sales/redeem/${v.body.uuid}/`, { method: "POST" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ state: "redeemed", redeemed_by: "partnerB" });
    const second = await callAs(api, "partnerB", `/sales/redeem/${v.body.uuid}/`, { method: "POST" });
    expect(second.status).toBe(409);
    expect(second.body.redeemed_at).toBe(first.body.redeemed_at);
    // «Ya canjeado el … por …»: when, and who at the till.
    expect(second.body.detail).toMatch(/ya se canjeó el \d+ de \w+ de \d{4},? (a las )?\d{1,2}:\d{2} por partnerB\.$/);
    const again = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    expect(again.body).toMatchObject({ state: "redeemed", redeemed_at: first.body.redeemed_at, redeemed_by: "partnerB" });
  });

  it("two presses at the same moment redeem once", async () => {
    const price = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.price_options[1].actual_price;
    const option = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.price_options[1].uuid;
    const [code] = await couponsFor(api, option, price, 1);
    const { body } = await callAs(api, "partnerA", "/verification/coupon/", { body: { code } });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => callAs(api, "partnerA", `/sales/redeem/${body.uuid}/`, { method: "POST" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM coupons WHERE code = ${code} AND redeemed_at IS NOT NULL`,
    );
    expect(Number(row.n)).toBe(1);
  });

  it("redeeming brings the buyer's feedback mail forward to hours, and never queues a second one", async () => {
    const price = (await callAs(api, "partnerB", `/offers/${w.offerB}/`)).body.price_options[0].actual_price;
    const [code] = await couponsFor(api, w.optionB, price, 1);
    const [buyer] = await query<{ email: string }>(
      api.db,
      sql`
      SELECT s.email FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id WHERE c.code = ${code}`,
    );
    const feedbackMail = () =>
      query<{ send_after: string | Date }>(
        api.db,
        sql`
        SELECT send_after FROM mail_outbox WHERE kind = 'feedback-request' AND recipient = ${buyer.email.toLowerCase()}`,
      );
    const queued = await feedbackMail();
    expect(queued).toHaveLength(1);
    // The purchase asks FEEDBACK_DELAY_DAYS later (3 by default): days away.
    expect(new Date(queued[0].send_after).getTime() - Date.now()).toBeGreaterThan(2 * 86_400_000);
    const { body } = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    expect((await callAs(api, "partnerB", `/sales/redeem/${body.uuid}/`, { method: "POST" })).status).toBe(200);
    const after = await feedbackMail();
    expect(after).toHaveLength(1);
    const wait = new Date(after[0].send_after).getTime() - Date.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2 * 3_600_000);
  });

  it("says a code is not a coupon code, in Spanish", async () => {
    const r = await callAs(api, "partnerA", "/verification/coupon/", { body: { code: "hola" } });
    expect(r.status).toBe(400);
    expectSpanish(r.body.detail);
  });

  it("lists the partner's sales with coupon states, and exports CSV", async () => {
    const r = await callAs(api, "partnerB", `/sales/partner/?offer=${w.offerB}`);
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBeGreaterThan(0);
    expect(r.body.results.every((s: any) => s.offer.uuid === w.offerB)).toBe(true);
    expect(r.body.totals.redeemed).toBeGreaterThanOrEqual(1);
    const none = await callAs(api, "partnerB", `/sales/partner/?date_to=2020-01-01`);
    expect(none.body.results).toEqual([]);
    // A date with the right shape but no such day is bad input (400), not a database error.
    const impossible = await callAs(api, "partnerB", `/sales/partner/?date_from=2026-13-01`);
    expect(impossible.status).toBe(400);
    expectSpanish(impossible.body.detail);
    const csv = await fetch(`${api.url}/sales/partner/?format=csv`, { headers: (await import("./_partner")).as("partnerB") });
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="ventas-/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM: Excel reads the accents right
    const text = bytes.subarray(3).toString("utf8");
    expect(text.split("\r\n")[0]).toBe("Fecha de pago;Venta;Oferta;Opción;Cliente;Precio pagado;Código promocional;Cupón;Estado;Canjeado");
    expect(text).toContain("Canjeado");
    expect(text).not.toContain("Spa A");
  });
});

describe("promo codes", () => {
  it("a partner manages codes of its own offers only; staff any", async () => {
    const mine = await callAs(api, "partnerA", "/promocodes/", {
      body: { code: "socioa10", discount_type: "percent", discount_value: "10", offer: w.offerA, max_uses: 5 },
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.body).toMatchObject({ code: "SOCIOA10", offer: w.offerA, max_uses: 5, used_count: 0 });
    expect(
      (await callAs(api, "partnerA", "/promocodes/", { body: { code: "GLOBALA", discount_type: "percent", discount_value: "10" } })).status,
    ).toBe(400);
    expect(
      (
        await callAs(api, "partnerA", "/promocodes/", {
          body: { code: "AJENO", discount_type: "percent", discount_value: "10", offer: w.offerB },
        })
      ).status,
    ).toBe(404);
    expect((await callAs(api, "partnerB", `/promocodes/${mine.body.uuid}/`)).status).toBe(404);
    const again = await callAs(api, "partnerA", "/promocodes/", {
      body: { code: "SOCIOA10", discount_type: "amount", discount_value: "1", offer: w.offerA },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      detail: "Elige otro código: este no está disponible.",
      errors: { code: ["Elige otro código: este no está disponible."] },
    });
    const bad = await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PATCH", body: { discount_value: "150" } });
    expect(bad.status).toBe(400);
    const list = await callAs(api, "partnerA", "/promocodes/");
    expect(list.body.results.map((p: any) => p.code)).toEqual(["SOCIOA10"]);
    const staff = await callAs(api, "staff", "/promocodes/");
    expect(staff.body.results.map((p: any) => p.code)).toEqual(expect.arrayContaining(["SOCIOA10", "BIENVENIDA10"]));
    // The shop applies it like any other code.
    const applied = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "socioa10" } });
    expect(applied.body).toMatchObject({ promo_code: "SOCIOA10", discount_type: "percent", offer_uuid: w.offerA });
    expect((await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("promo codes: nothing learnt about anyone else's", () => {
  const body = (code: string, offer: string) => ({ code, discount_type: "percent", discount_value: "10", offer });

  it("a taken code gets one neutral answer, whoever has it: this business, another, or the whole shop", async () => {
    const own = await callAs(api, "partnerA", "/promocodes/", { body: body("PROPIO15", w.offerA) });
    const theirs = await callAs(api, "partnerB", "/promocodes/", { body: body("AJENO15", w.offerB) });
    expect([own.status, theirs.status]).toEqual([201, 201]);
    const answers = [];
    for (const code of ["PROPIO15", "ajeno15", "BIENVENIDA10"])
      answers.push(await callAs(api, "partnerA", "/promocodes/", { body: body(code, w.offerA) }));
    // Renaming a code to a taken one, too.
    const mine = await callAs(api, "partnerA", "/promocodes/", { body: body("RENOMBRAR15", w.offerA) });
    for (const code of ["AJENO15", "BIENVENIDA10"]) {
      answers.push(await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PATCH", body: { code } }));
      answers.push(await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PUT", body: body(code, w.offerA) }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        detail: "Elige otro código: este no está disponible.",
        errors: { code: ["Elige otro código: este no está disponible."] },
      });
    }
    // Still unique: each code once, the renamed one unchanged.
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM promo_codes WHERE code IN ('PROPIO15', 'AJENO15', 'BIENVENIDA10', 'RENOMBRAR15')`,
    );
    expect(Number(row.n)).toBe(4);
    expect((await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`)).body.code).toBe("RENOMBRAR15");
  });

  it("creating and renaming codes is rate-limited like apply-promocode: per account and per address", async () => {
    const limit = PROMO_CODE_CHECKS.points;
    const [first, second] = [await newPartner(api, w.orgA), await newPartner(api, w.orgA)];
    const write = async (who: { token: string }, address: string, code: string, id?: string) => {
      const response = await fetch(`${api.url}/promocodes/${id ? `${id}/` : ""}`, {
        method: id ? "PATCH" : "POST",
        headers: { "content-type": "application/json", authorization: `JWT ${who.token}`, "x-forwarded-for": address },
        body: JSON.stringify(id ? { code } : body(code, w.offerA)),
      });
      return { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get("retry-after") };
    };
    // Guessing: every try is a taken code, the answer a 409, until the limit.
    const tries = [];
    for (let i = 0; i < limit; i++) tries.push((await write(first, "203.0.113.7", "BIENVENIDA10")).status);
    expect(new Set(tries)).toEqual(new Set([409]));
    const limited = await write(first, "203.0.113.7", "BIENVENIDA10");
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toBe("Demasiados intentos con códigos promocionales. Espera un minuto.");
    expect(limited.retryAfter).toMatch(/^\d+$/);
    // The same account from elsewhere: still limited (renames too).
    expect((await write(first, "198.51.100.20", "OTRO15")).status).toBe(429);
    const [row] = await query<{ id: string }>(api.db, sql`SELECT id FROM promo_codes WHERE code = 'PROPIO15'`);
    expect((await write(first, "198.51.100.20", "OTRO16", row.id)).status).toBe(429);
    // Another account at the same address: the address is spent too.
    expect((await write(second, "203.0.113.7", "NUEVO15")).status).toBe(429);
    // That account elsewhere is fine.
    expect((await write(second, "198.51.100.21", "NUEVO15")).status).toBe(201);
  });
});

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

describe("lists in pages (a catalogue of 100,000 offers has thousands of organisations)", () => {
  it("GET /organizations/ answers a page by name with count and links; a partner still sees only its own", async () => {
    const all = await callAs(api, "staff", "/organizations/?page_size=100");
    expect(all.body.count).toBeGreaterThan(3);
    const names = all.body.results.map((o: any) => o.name);

    const first = await callAs(api, "staff", "/organizations/?page_size=2");
    expect(first.body).toMatchObject({ count: all.body.count, previous: null, next: "/api/v0/organizations/?page_size=2&page=2" });
    expect(first.body.results.map((o: any) => o.name)).toEqual(names.slice(0, 2));
    const second = await callAs(api, "staff", first.body.next.replace("/api/v0", ""));
    expect(second.body.results.map((o: any) => o.name)).toEqual(names.slice(2, 4));
    expect(second.body.previous).toBe("/api/v0/organizations/?page_size=2&page=1");
    const last = Math.ceil(all.body.count / 2);
    expect((await callAs(api, "staff", `/organizations/?page_size=2&page=${last}`)).body.next).toBeNull();

    const own = await callAs(api, "partnerA", "/organizations/?page_size=1");
    expect(own.body.count).toBe(1);
    expect(own.body.results.map((o: any) => o.uuid)).toEqual([w.orgA]);
    expect((await callAs(api, "staff", "/organizations/?page=0")).status).toBe(400);
  });

  it("GET /partner-leads/ answers a page, newest first", async () => {
    const all = await callAs(api, "staff", "/partner-leads/?page_size=100");
    expect(all.body.count).toBeGreaterThan(1);
    const second = await callAs(api, "staff", "/partner-leads/?page_size=1&page=2");
    expect(second.body.results.map((l: any) => l.uuid)).toEqual([all.body.results[1].uuid]);
    expect(second.body.previous).toBe("/api/v0/partner-leads/?page_size=1&page=1");
  });

  it("GET /offers/ links its next page instead of always answering null", async () => {
    const first = await callAs(api, "staff", "/offers/?page_size=1");
    expect(first.body.count).toBeGreaterThan(1);
    expect(first.body.next).toBe("/api/v0/offers/?page_size=1&page=2");
    const second = await callAs(api, "staff", "/offers/?page_size=1&page=2");
    expect(second.body.results[0].uuid).not.toBe(first.body.results[0].uuid);
    expect(second.body.previous).toBe("/api/v0/offers/?page_size=1&page=1");
  });
});

describe("GET /offers/?search= (a partner's list, the promo-code form's offer search)", () => {
  it("finds every word at a word start of the title or summary, folded, whatever the status; a partner only its own", async () => {
    const created = await callAs(api, "partnerA", "/offers/", {
      body: validOffer(w.orgA, {
        title: "Sesión de flotación en Chamberí",
        summary: "Noventa minutos de calma, muy cerca de la Plaza de España.",
      }),
    });
    expect(created.status).toBe(201);
    const id = created.body.uuid as string;
    const found = async (who: "partnerA" | "partnerB" | "staff", search: string) => {
      const { status, body } = await callAs(api, who, `/offers/?page_size=100&search=${encodeURIComponent(search)}`);
      expect(status).toBe(200);
      return (body.results as { uuid: string }[]).some((o) => o.uuid === id);
    };
    // A draft: staff find it, and so does its partner.
    expect(await found("staff", "FLOTACIÓN")).toBe(true);
    expect(await found("staff", "chamberi flotacion")).toBe(true); // any order, not side by side
    expect(await found("staff", "noventa")).toBe(true); // the summary
    expect(await found("partnerA", "Flota")).toBe(true); // the start of a word
    expect(await found("staff", "otacion")).toBe(false); // not the middle of one
    expect(await found("staff", "spa")).toBe(false); // «España»
    expect(await found("staff", "flotacion zzzz")).toBe(false); // every word
    expect(await found("partnerB", "flotacion")).toBe(false);
    // Every result of a search has each of its words at a word start.
    const { body } = await callAs(api, "staff", "/offers/?page_size=100&search=spa");
    for (const o of body.results as { title: string; summary: string }[])
      expect(foldText(`${o.title} ${o.summary}`)).toMatch(/(^|[^a-z0-9])spa/);
  });
});

describe("a partner's sales beyond a page (and beyond the 5,000 rows they were once cut at)", () => {
  const N = 5_200;
  let offer: string;
  beforeAll(async () => {
    const created = await callAs(api, "partnerB", "/offers/", { body: validOffer(w.orgB) });
    offer = created.body.uuid;
    const option = created.body.price_options[0].uuid;
    // One coupon per sale, a minute apart; every 10th sale owes a refund, every 4th coupon is redeemed.
    await query(
      api.db,
      sql`WITH s AS (
            INSERT INTO sales (session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at)
            SELECT 'bulk-' || g, 'bulk@example.es', CASE WHEN g % 10 = 0 THEN 'refund_required' ELSE 'paid' END, 'sandbox', 1000,
                   '{}'::jsonb, now(), now() - g * interval '1 minute'
            FROM generate_series(1, ${N}) g RETURNING id, paid_at),
          i AS (
            INSERT INTO sale_items (sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
            SELECT id, ${offer}, ${option}, 1, 1000, 1000 FROM s RETURNING id, sale_id)
          INSERT INTO coupons (sale_item_id, code, redeemed_at)
          SELECT i.id, 'BULK' || lpad((n)::text, 8, '0'), CASE WHEN n % 4 = 0 THEN now() END
          FROM (SELECT i.id, row_number() OVER (ORDER BY s.paid_at) AS n FROM i JOIN s ON s.id = i.sale_id) i`,
    );
  }, 60_000);

  it("answers a page, with totals of every coupon the filter matches", async () => {
    const first = await callAs(api, "partnerB", `/sales/partner/?offer=${offer}&page_size=100`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(N);
    expect(first.body.results).toHaveLength(100);
    // Sold counts what is still the buyers' (refunded coupons are listed, and counted apart).
    expect(first.body.totals).toEqual({ coupons: N - N / 10, refunded: N / 10, redeemed: N / 4, revenue: ((N - N / 10) * 10).toFixed(2) });
    expect(first.body.next).toBe(`/api/v0/sales/partner/?offer=${offer}&page_size=100&page=2`);
    const last = await callAs(api, "partnerB", `/sales/partner/?offer=${offer}&page_size=100&page=${N / 100}`);
    expect(last.body.results).toHaveLength(100);
    expect(last.body.next).toBeNull();
    // Newest sale first: the last page ends with the oldest coupon.
    expect(last.body.results.at(-1).code).toBe("BULK00000001");
  });

  it("staff page through the sales owing a refund, past the 500 they were once cut at", async () => {
    const first = await callAs(api, "staff", "/sales/refund_required/?page_size=100");
    expect(first.body.count).toBeGreaterThanOrEqual(N / 10);
    const last = Math.ceil(first.body.count / 100);
    const tail = await callAs(api, "staff", `/sales/refund_required/?page_size=100&page=${last}`);
    expect(tail.body.results).toHaveLength(first.body.count - (last - 1) * 100);
    expect(tail.body.next).toBeNull();
    expect((await callAs(api, "partnerB", "/sales/refund_required/")).status).toBe(403);
  });

  it("exports every coupon in the CSV, oldest sale first, each once", async () => {
    const csv = await fetch(`${api.url}/sales/partner/?format=csv&offer=${offer}`, {
      headers: (await import("./_partner")).as("partnerB"),
    });
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(N + 1);
    const codes = lines.slice(1).map((l) => l.split(";")[7]);
    expect(new Set(codes).size).toBe(N);
    expect(codes[0]).toBe("BULK00000001");
    expect(codes.at(-1)).toBe(`BULK${String(N).padStart(8, "0")}`);
  });
});
