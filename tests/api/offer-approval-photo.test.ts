import { describe, expect, it } from "vitest";
import { APPROVE_WITHOUT_PHOTO } from "#rules/images";
import { call, type TestApi } from "#tests/support/api-server";
import { expectSpanish } from "./_helpers";
import { callAs, png, uploadImage, withPartnerWorld, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

describe("staff approve an offer only with a photo of its own", () => {
  it("refuses one whose photos were removed after it was sent (only the drawn placeholder or a logo left), in Spanish", async () => {
    const created = await callAs(api, "partnerA", "/offers/", { body: validOffer(w.orgA, { title: "Cata de vinos sin foto" }) });
    expect(created.status).toBe(201);
    const id = created.body.uuid;
    const patch = (who: "partnerA" | "staff", body: object) => callAs(api, who, `/offers/${id}/`, { method: "PATCH", body });
    const cover = await uploadImage(api, "partnerA", { offer: id, cover: "true", alt: "Copas" }, await png());
    expect(cover.status).toBe(201);
    expect((await patch("partnerA", { status: "pending_review" })).status).toBe(200);

    // Once sent the partner can still take its photo away: the shop would show the drawing.
    const removed = await callAs(api, "partnerA", `/offers/images/${cover.body.uuid}/`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    const logo = await uploadImage(api, "partnerA", { offer: id, logo: "true", alt: "Logo" }, await png(400, 400));
    expect(logo.status).toBe(201);

    let r = await patch("staff", { status: "active" });
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe(APPROVE_WITHOUT_PHOTO);
    expectSpanish(r.body.detail);
    expect((await call(api, `/public/offers/${id}/`)).status).toBe(404);
    const still = await callAs(api, "staff", `/offers/${id}/`);
    expect(still.body.status).toBe("pending_review");

    // With a real photo again, the same approval goes through.
    expect((await uploadImage(api, "partnerA", { offer: id, cover: "true", alt: "Copas" }, await png())).status).toBe(201);
    r = await patch("staff", { status: "active" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("active");
    expect((await call(api, `/public/offers/${id}/`)).status).toBe(200);
  });
});
