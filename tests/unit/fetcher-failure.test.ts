import { redirect } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { NETWORK_FAILURE_TEXT, toastOnFailure } from "#app/forms/fetcher-failure";
import { showToast } from "#app/components/toast";

vi.mock("#app/components/toast", () => ({ showToast: vi.fn() }));

const args = (serverAction: () => Promise<unknown>) => ({ serverAction }) as unknown as Parameters<typeof toastOnFailure>[0];

describe("toastOnFailure (the clientAction of fetcher forms)", () => {
  it("passes a redirect through: the consent page and the cart answer a post with one", async () => {
    const answer = redirect("/ofertas/", 303);
    await expect(toastOnFailure(args(() => Promise.reject(answer)))).rejects.toBe(answer);
  });

  it("turns a network failure into a toast and a { failed } answer", async () => {
    await expect(toastOnFailure(args(() => Promise.reject(new TypeError("Failed to fetch"))))).resolves.toEqual({
      failed: NETWORK_FAILURE_TEXT,
    });
    expect(showToast).toHaveBeenLastCalledWith("error", NETWORK_FAILURE_TEXT);
  });

  it("uses the API's detail for an error answer", async () => {
    // What the router throws for an error answer (the shape isRouteErrorResponse checks).
    const error = { status: 500, statusText: "Internal Server Error", internal: false, data: { detail: "La tienda no responde." } };
    await expect(toastOnFailure(args(() => Promise.reject(error)))).resolves.toEqual({ failed: "La tienda no responde." });
  });
});
