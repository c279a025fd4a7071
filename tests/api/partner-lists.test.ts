/** A partner's lists in pages, and the offer search of its own list. */
import { describe, expect, it } from "vitest";
import { foldText } from "#rules/search";
import { partnerLeads } from "#api/db/schema";
import type { TestApi } from "#tests/support/api-server";
import { callAs, withPartnerWorld, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

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
    const lead = { contactName: "Ana", email: "ana@bar.es", phone: "600000000", province: "Madrid", category: "restaurants" };
    await api.db.insert(partnerLeads).values([
      { ...lead, businessName: "Bar Uno", createdAt: new Date(Date.now() - 60_000) },
      { ...lead, businessName: "Bar Dos" },
    ]);
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
