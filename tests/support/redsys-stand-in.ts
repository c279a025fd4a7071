/**
 * The stand-in Redsys of tests/mocks/redsys.ts as a local HTTP server, for the browser: its
 * payment page (/sis/realizarPago) with «Autorizar», «Denegar» and «Cancelar», plain forms that
 * work without JavaScript like Redsys's own, and its REST endpoint for refunds.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRedsysStandIn, decide, receivePaymentForm, restAnswer, type RedsysStandIn, type StandInOutcome } from "#tests/mocks/redsys";

export type RedsysServer = { url: string; state: RedsysStandIn; close: () => Promise<void> };

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>body{font-family:sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
button{display:block;width:100%;min-height:48px;margin:.5rem 0;font-size:1rem}</style></head><body>${body}</body></html>`;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startRedsysStandIn(init: Parameters<typeof createRedsysStandIn>[0] = {}): Promise<RedsysServer> {
  let state: RedsysStandIn = createRedsysStandIn(init);
  const pendingLate = new Set<Promise<unknown>>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": type, ...headers });
        res.end(body);
      };
      const url = new URL(req.url ?? "/", "http://stand-in");
      const text = req.method === "POST" ? await readBody(req) : "";
      if (req.method === "POST" && url.pathname === "/sis/rest/trataPeticionREST") {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          // answered with an error code below
        }
        return send(200, "application/json", JSON.stringify(restAnswer(state, body)));
      }
      if (req.method === "POST" && url.pathname === "/sis/realizarPago") {
        const order = receivePaymentForm(state, Object.fromEntries(new URLSearchParams(text)));
        if ("error" in order) return send(200, "text/html; charset=utf-8", page("Error", `<h1>Error ${esc(order.error)}</h1>`));
        const bizum = order.params.DS_MERCHANT_PAYMETHODS === "z";
        const euros = (Number(order.params.DS_MERCHANT_AMOUNT) / 100).toFixed(2).replace(".", ",");
        const button = (outcome: StandInOutcome, label: string) =>
          `<form method="post" action="/sis/stand-in/decide"><input type="hidden" name="order" value="${esc(order.order)}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit">${label}</button></form>`;
        return send(
          200,
          "text/html; charset=utf-8",
          page(
            "Redsys (stand-in)",
            `<h1>${bizum ? "Bizum" : "Pago con tarjeta"} · Redsys de pruebas</h1>
<p>Comercio ${esc(state.merchantCode)} · Pedido <span data-testid="order">${esc(order.order)}</span></p>
<p>Importe: <strong data-testid="amount">${euros} €</strong></p>
<p data-testid="method">${bizum ? "Teléfono Bizum: 700000000" : "Tarjeta 4548 8100 0000 0003 · 12/49 · CVV 123"}</p>
${button("authorised", "Autorizar")}${button("denied", "Denegar")}${button("cancelled", "Cancelar")}`,
          ),
        );
      }
      if (req.method === "POST" && url.pathname === "/sis/stand-in/decide") {
        const form = new URLSearchParams(text);
        const order = state.orders.get(form.get("order") ?? "");
        const outcome = form.get("outcome") as StandInOutcome;
        if (!order || order.outcome || !["authorised", "denied", "cancelled"].includes(outcome)) {
          return send(400, "text/html; charset=utf-8", page("Error", "<h1>Pedido no válido</h1>"));
        }
        const { returnTo, late } = await decide(state, order, outcome);
        if (late) {
          pendingLate.add(late);
          void late.finally(() => pendingLate.delete(late));
        }
        return send(303, "text/plain", "", { location: returnTo });
      }
      send(404, "text/plain", "not found");
    })().catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  state = createRedsysStandIn({ ...init, apiBase: url });
  return {
    url,
    get state() {
      return state;
    },
    close: async () => {
      await Promise.allSettled([...pendingLate]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
