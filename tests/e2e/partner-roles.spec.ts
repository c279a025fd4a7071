import { DEMO_CASHIER, DEMO_PARTNER } from "#api/db/demo-accounts";
import { expect, ready, test } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

/**
 * Roles within a partner, in the browser: a cashier sees the till and nothing else, a page of the
 * desk answers the 403 page, and an owner brings in a cashier by email who accepts the invitation.
 */
const DESK_TABS = ["Mis ofertas", "Ventas", "Códigos promocionales", "Liquidaciones", "Equipo"];

test("a cashier sees only the till, and /socios/ventas answers the 403 page", { tag: "@js-covers" }, async ({ page, js, loginAs }) => {
  await loginAs(DEMO_CASHIER);
  await page.goto("/socios");
  await ready(page, js);
  const tabs = page.getByRole("navigation", { name: "Portal de socios" });
  await expect(tabs.getByRole("link", { name: "Canjear cupón" })).toBeVisible();
  for (const name of DESK_TABS) await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Comprobar" })).toBeVisible();

  for (const path of ["/socios/ventas", "/socios/liquidaciones", "/socios/ofertas", "/socios/codigos", "/socios/equipo"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByText("No tienes permiso para hacer esto.")).toBeVisible();
  }
});

test("an owner invites a cashier by email; logged in with that address, the person accepts and sees the till", async ({
  page,
  js,
  newCustomer,
  loginAs,
}, testInfo) => {
  test.setTimeout(90_000);
  const invitee = await newCustomer();

  await loginAs(DEMO_PARTNER);
  await page.goto("/socios/equipo");
  await ready(page, js);
  const team = page.locator("section.buy-box").first();
  const organization = (await team.getByRole("heading", { level: 2 }).textContent())!.trim();
  await expect(team.getByRole("list", { name: `Miembros de ${organization}` })).toContainText("Cajero");
  await team.getByLabel("Correo de la persona").fill(invitee.email);
  await team.getByLabel("Rol", { exact: true }).selectOption("cashier");
  await team.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(page.getByText(`Invitación enviada a ${invitee.email}`).first()).toBeVisible();
  const pending = page
    .locator("section.buy-box")
    .first()
    .getByRole("list", { name: `Invitaciones pendientes de ${organization}` });
  await expect(pending).toContainText(invitee.email);

  if (testInfo.project.name === "js") {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: testInfo.outputPath(`equipo-${width}.png`), fullPage: true });
    }
  }

  const mail = await waitForMail(E2E_INBOX, invitee.email, { subject: /te invita al portal de socios/ });
  const link = /https?:\/\/[^\s"]+\/invitacion\/[^\s"<]+/.exec(mail.text ?? "")?.[0];
  expect(link, mail.text).toBeTruthy();

  await page.context().clearCookies();
  await loginAs(invitee);
  await page.goto(new URL(link!).pathname);
  await ready(page, js);
  await expect(page.getByText(`${organization} te invita a su equipo con el rol de cajero.`)).toBeVisible();
  await page.getByRole("button", { name: "Aceptar la invitación" }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/socios");
  await expect(page.getByText(`Ya formas parte de ${organization} como cajero.`).first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Portal de socios" }).getByRole("link", { name: "Canjear cupón" })).toBeVisible();
  for (const name of DESK_TABS) await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});
