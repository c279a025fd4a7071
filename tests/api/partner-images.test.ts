/** An offer's pictures: the upload route, phone photos, and what it refuses. */
import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { OfferImage } from "#contract/offers";
import { query } from "#api/db/client";
import { offerImages } from "#api/db/schema";
import type { TestApi } from "#tests/support/api-server";
import { expectSpanish } from "./_helpers";
import { phonePhoto } from "#tests/support/photos";
import { as, callAs, png, uploadImage, withPartnerWorld, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

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
