// One purchase through the API of a running server, as a buyer's browser makes it: validate,
// create, pay on the sandbox's page, capture. Plain Node (no dev dependency): it runs in a pruned
// install. Usage: node scripts/production-purchase.mjs BASE_URL PUBLIC_URL OPTION_ID PRICE EMAIL
import http from "node:http";

const [base, publicUrl, option, price, email] = process.argv.slice(2);
const shop = new URL(publicUrl);

function request(method, path, body, type = "application/json") {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      // The shop's own Host, as the proxy in front of it forwards it (the Host guard refuses others).
      { method, headers: { host: shop.host, "x-forwarded-proto": shop.protocol.slice(0, -1), "content-type": type } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            // a page, not JSON
          }
          resolve({ status: res.statusCode, json, text, location: res.headers.location });
        });
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(typeof body === "string" ? body : JSON.stringify(body));
    req.end();
  });
}

function expect(ok, what, answer) {
  if (!ok) {
    console.error(`${what}: ${answer ? `${answer.status} ${answer.text.slice(0, 500)}` : ""}`);
    process.exit(1);
  }
}

const order = {
  items: [{ offer_price_uuid: option, quantity: 1, saved_price: price, slot_id: null, promo_codes: [] }],
  checkout_data: { subs_agreement: true, email, need_receipt: false, for_present: [] },
};
const validated = await request("POST", "/api/v0/sales/validate/", order);
expect(validated.status === 200 && validated.json?.errors?.length === 0, "validate", validated);
const created = await request("POST", "/api/v0/sales/create/", { session_token: validated.json.checkout_data.session_token });
expect(created.status === 201, "create", created);
const payment = created.json.payment;
const page = new URL(payment.redirect_url);
expect(page.origin === shop.origin, `the sandbox page is on the public origin (${payment.redirect_url})`);
const paid = await request("POST", page.pathname, "action=pay", "application/x-www-form-urlencoded");
expect(paid.status === 303, "sandbox pay", paid);
const captured = await request("POST", `/api/v0/sales/capture/${payment.sale_id}/`, { transaction_id: payment.transaction_id });
expect(captured.status === 200 && captured.json?.status === "paid", "capture", captured);
console.log(payment.sale_id);
