import { describe, expect, it } from "vitest";
import { CONSENT_POLICY_VERSION, cookiesToRemove, isReplayExcluded, makeChoice, readChoice, withdrawn } from "#rules/consent";
import { ConsentFormSchema, grantedBy } from "#app/routes/consent/schema";

describe("consent choice", () => {
  it("is kept with its policy version and date", () => {
    const choice = makeChoice({ analytics: true, marketing: false }, new Date("2026-11-21T10:00:00Z"));
    expect(choice).toEqual({ version: CONSENT_POLICY_VERSION, date: "2026-11-21T10:00:00.000Z", analytics: true, marketing: false });
    expect(readChoice(JSON.parse(JSON.stringify(choice)))).toEqual(choice);
  });

  it("reads a choice of another policy version, or of the wrong shape, as no choice (the banner asks again)", () => {
    const choice = makeChoice({ analytics: true, marketing: true });
    expect(readChoice({ ...choice, version: CONSENT_POLICY_VERSION - 1 })).toBeNull();
    expect(readChoice({ ...choice, analytics: "yes" })).toBeNull();
    expect(readChoice({ ...choice, date: "ayer" })).toBeNull();
    expect(readChoice("accepted")).toBeNull(); // the cookie's value before this issue
    expect(readChoice(null)).toBeNull();
  });

  it("knows which categories were withdrawn and which cookies go with them", () => {
    const all = makeChoice({ analytics: true, marketing: true });
    const none = makeChoice({ analytics: false, marketing: false });
    expect(withdrawn(all, makeChoice({ analytics: false, marketing: true }))).toEqual(["analytics"]);
    expect(withdrawn(all, none)).toEqual(["analytics", "marketing"]);
    expect(withdrawn(null, none)).toEqual([]);
    const names = [
      "__cart",
      "__session",
      "ofertas_consent",
      "AMP_abc123",
      "AMP_MKTG_abc123",
      "_ga",
      "_ga_X1Y2Z3",
      "_gid",
      "_gcl_au",
      "_fbp",
      "gallery",
    ];
    expect(cookiesToRemove(names, ["analytics"])).toEqual(["AMP_abc123", "AMP_MKTG_abc123"]);
    expect(cookiesToRemove(names, ["marketing"])).toEqual(["_ga", "_ga_X1Y2Z3", "_gid", "_gcl_au", "_fbp"]);
  });

  it("the form: two equal buttons and the switches", () => {
    expect(grantedBy(ConsentFormSchema.parse({ intent: "accept-all" }))).toEqual({ analytics: true, marketing: true });
    expect(grantedBy(ConsentFormSchema.parse({ intent: "reject-all", analytics: "on" }))).toEqual({ analytics: false, marketing: false });
    expect(grantedBy(ConsentFormSchema.parse({ intent: "save", marketing: "on" }))).toEqual({ analytics: false, marketing: true });
    expect(ConsentFormSchema.safeParse({ intent: "everything" }).success).toBe(false);
  });

  it("never records payment or account pages", () => {
    for (const p of ["/checkout/", "/order/", "/order/success", "/login", "/cuenta/pedidos"]) expect(isReplayExcluded(p)).toBe(true);
    for (const p of ["/", "/ofertas/", "/ofertas/1b2c/", "/buscar", "/orderly"]) expect(isReplayExcluded(p)).toBe(false);
  });
});
