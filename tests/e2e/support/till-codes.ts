import type { APIRequestContext } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";

/** The demo partner's coupons still to redeem, read from its sales as its own client would. */
export async function validCodes(request: APIRequestContext): Promise<string[]> {
  const login = await request.post("/api/v0/auth/jwt/create/", { data: { email: DEMO_PARTNER.email, password: DEMO_PARTNER.password } });
  const headers = { Authorization: `JWT ${((await login.json()) as { access: string }).access}` };
  const sales = await request.get("/api/v0/sales/partner/?page_size=100", { headers });
  const { results } = (await sales.json()) as { results: { code: string; state: string }[] };
  return results.filter((r) => r.state === "valid").map((r) => r.code);
}
