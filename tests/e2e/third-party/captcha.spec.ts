/**
 * The captcha on the become-partner (/empresas) and login-code (/login) forms, on the server with Turnstile keys. The
 * browser's Turnstile is intercepted; the server's own check cannot reach Cloudflare from here,
 * which is exactly the provider-down case: the form fails closed with a clear Spanish message.
 * Without JavaScript the form carries a field the widget replaces, and the server vouches for it.
 */
import type { Page } from "@playwright/test";
import { expect, ready, test } from "../support/fixtures";
import { mockVendors, type Vendors } from "./mock-vendors";

let vendors: Vendors;
test.beforeEach(async ({ context }) => {
  vendors = await mockVendors(context);
});

async function fillLead(page: Page, tag: string) {
  const form = page.locator("#publica");
  await form.getByLabel("Nombre del negocio").fill("Taberna La Viña");
  await form.getByLabel("Tu nombre").fill("Marta Gil");
  await form.getByLabel("Correo electrónico").fill(`marta.${tag}.${Date.now()}@lavina.es`);
  await form.getByLabel("Teléfono").fill("955 123 456");
  await form.getByLabel("Provincia").selectOption("Sevilla");
  await form.getByLabel("Categoría").selectOption("restaurants");
  return form;
}

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("the widget is on the form; with the provider unreachable the form fails closed and keeps what was typed", async ({ page }) => {
    await page.goto("/empresas");
    await ready(page, true);
    await expect(page.getByText("Verificación antispam completada")).toBeVisible();
    const script = vendors.requests.find((r) => r.url().startsWith("https://challenges.cloudflare.com/turnstile/v0/api.js"));
    expect(script?.url()).toContain("render=explicit");
    const form = await fillLead(page, "captcha");
    await form.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(form.getByText(/La comprobación antispam no responde ahora mismo/)).toBeVisible();
    await expect(form.getByLabel("Nombre del negocio")).toHaveValue("Taberna La Viña");
    await expect(page).not.toHaveURL(/enviado=1/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("no widget, nothing loaded from Cloudflare, and the form still works", async ({ page }) => {
    await page.goto("/empresas");
    const form = await fillLead(page, "nojs");
    await form.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(page.getByText("Hemos recibido tu solicitud").first()).toBeVisible();
    expect(vendors.requests).toEqual([]);
  });
});

test.describe("the login code form, with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("carries the widget; with the provider unreachable no code is sent, the form says why and keeps the email", async ({ page }) => {
    await page.goto("/login");
    await ready(page, true);
    await expect(page.getByText("Verificación antispam completada")).toBeVisible();
    await page.getByLabel("Correo electrónico").fill("captcha-login@correo.es");
    await page.getByRole("button", { name: "Enviar código" }).click();
    await expect(page.getByText(/La comprobación antispam no responde ahora mismo/)).toBeVisible();
    await expect(page.getByLabel("Correo electrónico")).toHaveValue("captcha-login@correo.es");
    await expect(page.getByText("Te hemos enviado un código")).toHaveCount(0);
  });
});

test.describe("the login code form, with JavaScript and the widget blocked", () => {
  test.use({ javaScriptEnabled: true });

  test("sends no code without the check: the script ran, so the form is no longer the no-JavaScript one", async ({ page }) => {
    await page.route("https://challenges.cloudflare.com/**", (route) => route.abort("blockedbyclient"));
    await page.goto("/login");
    await ready(page, true);
    await expect(page.locator("input[name=captcha_noscript]")).toHaveCount(0);
    await page.getByLabel("Correo electrónico").fill("captcha-bloqueado@correo.es");
    await page.getByRole("button", { name: "Enviar código" }).click();
    await expect(
      page.getByText("Falta la verificación antispam: espera a que termine (debajo del formulario) y vuelve a enviarlo."),
    ).toBeVisible();
    await expect(page.getByLabel("Correo electrónico")).toHaveValue("captcha-bloqueado@correo.es");
    await expect(page.getByText("Te hemos enviado un código")).toHaveCount(0);
  });
});

test.describe("the login code form, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("has no widget, loads nothing from Cloudflare, and sends the code", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Correo electrónico").fill(`captcha-nojs-${Date.now()}@correo.es`);
    await page.getByRole("button", { name: "Enviar código" }).click();
    await expect(page.getByText("Te hemos enviado un código")).toBeVisible();
    expect(vendors.requests).toEqual([]);
  });
});
