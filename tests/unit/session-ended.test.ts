// @vitest-environment node
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

type Modules = {
  login: typeof import("#app/state/session-ended.server");
  auth: typeof import("#app/state/auth.server");
  session: typeof import("#app/state/session.server");
};
let m: Modules;
beforeAll(async () => {
  process.env.SESSION_SECRET = "unit-test-secret-0123456789abcdef";
  process.env.API_URL = "http://api.internal/api/v0";
  m = {
    login: await import("#app/state/session-ended.server"),
    auth: await import("#app/state/auth.server"),
    session: await import("#app/state/session.server"),
  };
});
afterEach(() => vi.unstubAllGlobals());

/** A JWT-shaped token the storefront can read (it never checks signatures: the API does). */
const token = (email: string) => {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256" })}.${part({ email, role: "customer", iat: now, exp: now + 900 })}.firma`;
};

/** A browser request carrying a logged-in session cookie. */
async function loggedIn(method = "GET") {
  const session = await m.session.getSession(new Request("https://shop.example/"));
  m.auth.setAuth(session, { access: token("ana@correo.es"), refresh: "refresco-viejo" });
  const cookie = (await m.session.commitSession(session)).split(";")[0];
  return new Request("https://shop.example/cuenta?paso=eliminar", { method, headers: { Cookie: cookie } });
}

async function thrown(run: () => Promise<unknown>): Promise<Response> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("no redirect");
}

const sessionOf = (response: Response) =>
  m.session.getSession(
    new Request("https://shop.example/", { headers: { Cookie: response.headers.get("Set-Cookie")?.split(";")[0] ?? "" } }),
  );

describe("sessionEnded: the API refused this browser's access token", () => {
  it("when the session lives on, a page load renews the pair and loads the same page again", async () => {
    const fetchSpy = vi.fn(async () => Response.json({ access: token("ana@correo.es"), refresh: "refresco-nuevo" }));
    vi.stubGlobal("fetch", fetchSpy);
    const response = await thrown(async () => m.login.sessionEnded(await loggedIn(), "/login?redirectTo=%2Fcuenta"));
    expect(response.headers.get("Location")).toBe("/cuenta?paso=eliminar");
    expect(String((fetchSpy.mock.calls[0] as unknown as [URL])[0])).toBe("http://api.internal/api/v0/auth/jwt/refresh/");
    expect(m.auth.authData(await sessionOf(response))?.refresh).toBe("refresco-nuevo");
  });

  it("when the session was ended, the browser forgets it and goes to log in", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ detail: "El token no es válido.", code: "token_not_valid" }, { status: 401 })),
    );
    const response = await thrown(async () => m.login.sessionEnded(await loggedIn(), "/login?redirectTo=%2Fcuenta"));
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fcuenta");
    const session = await sessionOf(response);
    expect(m.auth.authData(session)).toBeNull();
    expect(m.session.takeToasts(session)).toEqual([{ type: "error", text: "Tu sesión se ha cerrado. Vuelve a entrar." }]);
  });

  it("a form post is not replayed: it logs in again without trying the refresh", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    const response = await thrown(async () => m.login.sessionEnded(await loggedIn("POST"), "/login?redirectTo=%2Fcuenta"));
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fcuenta");
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

it("the API client forwards the browser's User-Agent, which names the login's device", async () => {
  const fetchSpy = vi.fn(async () => Response.json({ access: "a", refresh: "r" }));
  vi.stubGlobal("fetch", fetchSpy);
  const { call } = await import("#app/api-client/client.server");
  const { authRoutes } = await import("#contract/auth");
  await call(authRoutes.create, {
    body: { email: "ana@example.com", password: "secreto" },
    request: new Request("https://shop.example/login", { headers: { "user-agent": "Mozilla/5.0 (iPhone)" } }),
  });
  expect(((fetchSpy.mock.calls[0] as unknown as [URL, RequestInit])[1].headers as Record<string, string>)["User-Agent"]).toBe(
    "Mozilla/5.0 (iPhone)",
  );
});
