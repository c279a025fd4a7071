import { acceptCookies, expect, ready, test } from "./support/fixtures";
import { E2E_INBOX, readInbox, waitForMail } from "./support/mail";

test("a business finds «Publica tu oferta» from the footer and sends its application", async ({ page, js }) => {
  await page.goto("/");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Publica tu oferta" }).click();
  await expect(page).toHaveURL(/\/empresas$/);
  await expect(page.getByRole("heading", { name: "¿Por qué publicar en ofertas?" })).toBeVisible();
  await ready(page, js);

  const form = page.locator("#publica");
  // An empty form: the same schema answers in Spanish, in the browser with JS and from the server without.
  await form.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(form.getByText("Escribe el nombre del negocio.")).toBeVisible();
  await expect(form.getByLabel("Nombre del negocio")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Nombre del negocio").fill("Taberna La Viña");
  await form.getByLabel("Tu nombre").fill("Marta Gil");
  await form.getByLabel("Correo electrónico").fill(js ? "no-es-un-correo" : "");
  await form.getByLabel("Teléfono").fill("955 123 456");
  await form.getByLabel("Provincia").selectOption("Sevilla");
  await form.getByLabel("Categoría").selectOption("restaurants");
  if (js) {
    // With JS the same schema checks on blur and on submit, in Spanish, and nothing typed is lost.
    await form.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(form.getByText("Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")).toBeVisible();
    await expect(form.getByLabel("Nombre del negocio")).toHaveValue("Taberna La Viña");
  }

  const applicant = `marta.${js ? "js" : "nojs"}.${Date.now()}@lavina.es`;
  await form.getByLabel("Correo electrónico").fill(applicant);
  await form.getByLabel("¿Qué te gustaría ofrecer? (opcional)").fill("Tapas y vinos. Carta en https://lavina.example/carta");
  await form.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(page.getByText("Hemos recibido tu solicitud").first()).toBeVisible();
  await expect(page).toHaveURL(/enviado=1/);

  // The applicant gets a confirmation in fixed words (whoever typed their address into the form
  // cannot make it carry a message); the business team gets the lead, with the applicant to reply to.
  const confirmation = await waitForMail(E2E_INBOX, applicant, { subject: /Hemos recibido tu solicitud/ });
  expect(confirmation.text).toContain("Hemos recibido tu solicitud");
  for (const typed of ["Marta Gil", "Taberna La Viña", "955 123 456", "lavina.example", "Tapas y vinos"]) {
    expect(confirmation.text).not.toContain(typed);
    expect(confirmation.html || "").not.toContain(typed);
  }
  const teamMail = async () =>
    (await readInbox(E2E_INBOX)).find(
      (m) => m.replyTo?.value[0].address === applicant && /Solicitud de socio: Taberna La Viña/.test(m.subject ?? ""),
    )?.text;
  await expect.poll(teamMail, { timeout: 15_000 }).toContain("955 123 456");
  await expect.poll(teamMail).toContain("https://lavina.example/carta");
});
