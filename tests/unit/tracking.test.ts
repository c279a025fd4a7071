// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  ANALYTICS_SETTINGS,
  fetchWithReplayPolicy,
  isUntracked,
  scrubEvent,
  scrubProperties,
  scrubReplayPayload,
  scrubText,
  SESSION_REPLAY_SETTINGS,
} from "#rules/tracking";

describe("what a vendor may receive (rules/tracking.ts)", () => {
  it("reduces every URL in a text to its path and blanks every address, plain or URL-encoded", () => {
    expect(scrubText("https://ofertas.es/unsubscribe?sig=abc&email=ana%40correo.es")).toBe("https://ofertas.es/unsubscribe");
    expect(scrubText("/buscar?q=cliente%40ofertas.es")).toBe("/buscar");
    expect(scrubText("/feedback?token=tok_8Fq2#x")).toBe("/feedback");
    // Inside other text, as a replay's copy of the page carries them.
    expect(scrubText('{"href":"http://localhost:3241/buscar?q=x%40y.es","w":1}')).toBe('{"href":"http://localhost:3241/buscar","w":1}');
    expect(scrubText('<a href="/login/registro?paso=activar&email=a%40b.es">')).toBe('<a href="/login/registro">');
    expect(scrubText("escríbeme a ana@correo.es o a josé.núñez@correo.es")).toBe("escríbeme a [email] o a [email]");
    expect(scrubText("q=ana%40correo.es y ana%2540correo.es")).toBe("q=[email] y [email]");
    // What is not an address or a query stays.
    expect(scrubText("}@media (max-width:780px){.a{color:red}} ¿Qué buscas? 59,90 €")).toBe(
      "}@media (max-width:780px){.a{color:red}} ¿Qué buscas? 59,90 €",
    );
  });

  it("scrubs every property of an event, the SDK's and ours, and cuts them to the spec's lengths", () => {
    const event = scrubEvent({
      event_type: "[Amplitude] Page Viewed",
      device_id: "d-123",
      event_properties: {
        "[Amplitude] Page Location": "http://localhost/unsubscribe?email=cliente%40ofertas.es&sig=abc",
        "[Amplitude] Previous Page Location": "http://localhost/buscar?q=cliente%40ofertas.es",
        referrer: "https://webmail.example/?to=ana@correo.es",
        "[Amplitude] Page Title": "Resultados para cliente@ofertas.es",
        note: "x".repeat(400),
        "[Amplitude] Element Attributes": { "data-x": "y".repeat(300), href: "/feedback?rate=5&email=a%40b.es" },
        "[Amplitude] Element Hierarchy": Array.from({ length: 60 }, (_, i) => ({ tag: "div", index: i })),
        n: 3,
      },
      user_properties: { $set: { utm_source: "mail", initial_referrer: "http://localhost/login?email=a@b.es" } },
    });
    const props = event.event_properties;
    expect(props["[Amplitude] Page Location"]).toBe("http://localhost/unsubscribe");
    expect(props["[Amplitude] Previous Page Location"]).toBe("http://localhost/buscar");
    expect(props.referrer).toBe("https://webmail.example/");
    expect(props["[Amplitude] Page Title"]).toBe("Resultados para [email]");
    expect(props.note).toHaveLength(ANALYTICS_SETTINGS.textMaxLength);
    expect(props["[Amplitude] Element Attributes"]).toEqual({
      "data-x": "y".repeat(ANALYTICS_SETTINGS.attributeMaxLength),
      href: "/feedback",
    });
    expect(JSON.stringify(props["[Amplitude] Element Hierarchy"]).length).toBeLessThanOrEqual(ANALYTICS_SETTINGS.hierarchyMaxLength);
    expect((props["[Amplitude] Element Hierarchy"] as { index: number }[]).at(-1)!.index).toBe(59); // the element itself is kept
    expect(props.n).toBe(3);
    expect(event.user_properties.$set.initial_referrer).toBe("http://localhost/login");
    expect(event.device_id).toBe("d-123");
    expect(JSON.stringify(event)).not.toMatch(/@|%40|sig=|email=/);
  });

  it("keeps the funnel's own properties as they were, scrubbed", () => {
    const out = scrubProperties({
      "[Amplitude] Page Location": "https://ofertas.es/unsubscribe?sig=abc&email=ana%40correo.es",
      note: "escríbeme a ana@correo.es",
      long: "x".repeat(400),
      n: 3,
    });
    expect(out).toEqual({
      "[Amplitude] Page Location": "https://ofertas.es/unsubscribe",
      note: "escríbeme a [email]",
      long: "x".repeat(ANALYTICS_SETTINGS.textMaxLength),
      n: 3,
    });
  });

  it("scrubs a session replay upload event by event", () => {
    const meta = JSON.stringify({ type: 4, data: { href: "http://localhost:3241/buscar?q=ana%40correo.es", width: 375 } });
    const text = JSON.stringify({ type: 2, data: { node: { textContent: "Resultados para «ana@correo.es»" } } });
    const out = JSON.parse(scrubReplayPayload(JSON.stringify({ version: 1, events: [meta, text] })));
    expect(out.version).toBe(1);
    expect(JSON.parse(out.events[0]).data.href).toBe("http://localhost:3241/buscar");
    expect(JSON.parse(out.events[1]).data.node.textContent).toBe("Resultados para «[email]»");
  });

  it("never tracks the pages mail links lead to, whatever their parameters", () => {
    for (const p of ["/unsubscribe", "/feedback", "/login", "/login/registro", "/login/recuperar", "/order/coupons"])
      expect(isUntracked(p), p).toBe(true);
    for (const p of ["/", "/ofertas/", "/buscar", "/checkout/", "/order/", "/loginx", "/feedbacks"]) expect(isUntracked(p), p).toBe(false);
  });
});

describe("session replay's remote configuration (spec section 9)", () => {
  /** Runs the policy against scripted answers, recording each try's timeout and the waits. */
  async function run(answers: (number | "down")[]) {
    const waits: number[] = [];
    const timeouts: number[] = [];
    let tries = 0;
    const deps = {
      fetch: (async () => {
        const answer = answers[Math.min(tries++, answers.length - 1)];
        if (answer === "down") throw new TypeError("Failed to fetch");
        return new Response("{}", { status: answer });
      }) as typeof fetch,
      sleep: async (ms: number) => void waits.push(ms),
      timeout: (ms: number) => (timeouts.push(ms), new AbortController().signal),
    };
    const result = await fetchWithReplayPolicy(
      "https://sr-client-cfg.eu.amplitude.com/config/k?config_group=browser",
      { method: "GET" },
      deps,
    ).then(
      (r) => r.status,
      () => "thrown",
    );
    return { result, tries, waits, timeouts };
  }

  it("gives each try 5 s and waits 1 s × the attempt between at most 3 tries", async () => {
    expect(await run([200])).toEqual({ result: 200, tries: 1, waits: [], timeouts: [SESSION_REPLAY_SETTINGS.remoteConfigTimeoutMs] });
    expect(await run(["down", 503, 200])).toEqual({ result: 200, tries: 3, waits: [1000, 2000], timeouts: [5000, 5000, 5000] });
    expect(await run(["down"])).toEqual({ result: "thrown", tries: 3, waits: [1000, 2000], timeouts: [5000, 5000, 5000] });
    expect(await run([503])).toMatchObject({ result: 503, tries: 3 });
    expect(await run([429, 200])).toMatchObject({ result: 200, tries: 2, waits: [1000] });
    // A refusal (a bad key) is final.
    expect(await run([403])).toMatchObject({ result: 403, tries: 1, waits: [] });
  });
});

describe("the events kept for sending (app/third-party/tracking.client.ts)", () => {
  it("keeps at most 1,000 in localStorage (spec section 9), the oldest first", async () => {
    const { storedEvents } = await import("#app/third-party/tracking.client");
    const events = Array.from({ length: 1_200 }, (_, i) => ({ event_type: "e", insert_id: String(i) }));
    expect(await storedEvents.isEnabled()).toBe(true);
    await storedEvents.set("AMP_unsent_test", events as never);
    const kept = (await storedEvents.get("AMP_unsent_test"))!;
    expect(kept).toHaveLength(ANALYTICS_SETTINGS.storedEventsMax);
    expect((kept[0] as { insert_id: string }).insert_id).toBe("0");
    await storedEvents.remove("AMP_unsent_test");
    expect(await storedEvents.get("AMP_unsent_test")).toBeUndefined();
  });
});
