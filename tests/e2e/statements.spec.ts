import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { addDays, madridDate } from "#rules/dates";
import { pdfText } from "#tests/support/pdf";
import { DEMO_STAFF } from "./support/auth";
import { check, test, VIEWPORTS, type Problem } from "./support/axe";
import { expect, ready } from "./support/fixtures";

/**
 * What a partner is owed, from both desks: staff set an organisation's commission and payable
 * moment, the owner enters its IBAN (a wrong one is refused in Spanish), staff issue the
 * statement, the owner reads its lines and downloads its CSV (parsed) and PDF (its text read
 * back), staff record the transfer and the owner sees «Pagada». With JS on and off; each project
 * takes one of the demo partner's two organisations, whose demo sale was a week ago.
 */
/** A day in Madrid, where statements are dated, `offset` days from today. */
const day = (offset: number) => addDays(madridDate(new Date()), offset);

async function screens(
  page: Page,
  js: boolean,
  name: string,
  problems: Problem[],
  helper: () => Promise<Page>,
  out: (f: string) => string,
) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: out(`${name}-${viewport.width}.png`), fullPage: true });
    await check(page, js, `${name} at ${viewport.width}`, problems, helper);
  }
  await page.setViewportSize(VIEWPORTS[1]);
}

test("staff set the terms and issue a statement; the owner downloads it and sees it paid", async ({
  page,
  browser,
  js,
  helper,
  loginAs,
}, info) => {
  test.setTimeout(240_000);
  const organization = js ? "Termas del Retiro" : "La Barca de Sant Miquel";
  const problems: Problem[] = [];
  const out = (f: string) => info.outputPath(f);
  const owner = await (await browser.newContext({ javaScriptEnabled: js, locale: "es-ES", baseURL: info.project.use.baseURL })).newPage();
  await owner.setViewportSize(VIEWPORTS[1]);

  // Staff: the organisation's commission and when its coupons are paid.
  await loginAs(DEMO_STAFF);
  await page.goto("/admin/liquidaciones");
  await ready(page, js);
  await page.getByLabel("Empresa", { exact: true }).selectOption({ label: organization });
  await page.getByRole("button", { name: "Ver condiciones" }).click();
  await ready(page, js);
  await expect(page.getByText("20\u00a0% (la estándar)")).toBeVisible();
  const commission = page.getByRole("form", { name: "Nueva comisión" });
  await commission.getByLabel("Comisión (%)").fill("150");
  await commission.getByRole("button", { name: "Guardar comisión" }).click();
  await expect(commission.getByText(/entre 0 y 100/)).toBeVisible();
  await commission.getByLabel("Comisión (%)").fill("15");
  await commission.getByLabel("Fijo por cupón (€, opcional)").fill("0,50");
  await commission.getByLabel("Desde el día").fill(day(-60));
  await commission.getByRole("button", { name: "Guardar comisión" }).click();
  await expect(page.getByText("15\u00a0% + 0,50\u00a0€ por cupón", { exact: false })).toBeVisible();
  const payable = page.getByRole("form", { name: "Momento de pago" });
  await payable.getByLabel("Se paga un cupón").selectOption({ label: "Al venderse" });
  await payable.getByRole("button", { name: "Guardar momento de pago" }).click();
  await ready(page, js);
  await expect(page.locator(".terms-list dd", { hasText: "Al venderse" })).toBeVisible();
  await screens(page, js, "admin-liquidaciones", problems, helper, out);

  // The owner: its terms, and its IBAN, checked by its digits.
  await loginAs(DEMO_PARTNER, owner);
  await owner.goto("/socios/liquidaciones");
  await ready(owner, js);
  const terms = owner.getByRole("region", { name: `Condiciones de ${organization}` });
  await expect(terms.getByText("15\u00a0% + 0,50\u00a0€ por cupón", { exact: false })).toBeVisible();
  await terms.getByLabel("IBAN de la cuenta de cobro").fill("ES91 2100 0418 4502 0005 1333");
  await terms.getByRole("button", { name: "Guardar IBAN" }).click();
  await expect(terms.getByText(/El IBAN no es válido: revisa los dígitos/)).toBeVisible();
  await expect(terms.getByLabel("IBAN de la cuenta de cobro")).toHaveValue("ES91 2100 0418 4502 0005 1333");
  await terms.getByLabel("IBAN de la cuenta de cobro").fill("ES91 2100 0418 4502 0005 1332");
  await terms.getByRole("button", { name: "Guardar IBAN" }).click();
  await expect(terms.getByText("ES** **** **** **** **** 1332")).toBeVisible();

  // Staff issue the statement of the last 30 days.
  const issue = page.getByRole("form", { name: "Liquidación a demanda" });
  await issue.getByLabel("Liquidar desde").fill(day(-30));
  await issue.getByLabel("Hasta (incluido)").fill(day(-1));
  await issue.getByRole("button", { name: "Emitir liquidación" }).click();
  await expect(page).toHaveURL(/\/admin\/liquidaciones\/[0-9a-f-]{36}$/);
  await ready(page, js);
  // With JS the address changes before the new page is drawn (the render is a transition): read the
  // number once the statement's heading is there, not the list's «Liquidaciones» still on screen.
  const heading = page.getByRole("heading", { level: 1, name: /^Liquidación \S+$/ });
  await expect(heading).toBeVisible();
  const number = /^Liquidación (\S+)$/.exec(await heading.innerText())![1];
  await expect(page.getByText("Pendiente de pago").first()).toBeVisible();
  await expect(page.getByText(/ES91 2100 0418 4502 0005 1332|ES9121000418450200051332/).first()).toBeVisible();
  await screens(page, js, "admin-liquidacion", problems, helper, out);

  // The owner finds it pending, opens it, downloads both files.
  await owner.goto("/socios/liquidaciones");
  await ready(owner, js);
  const row = owner.locator("table tbody tr", { hasText: number });
  await expect(row.getByText("Pendiente de pago")).toBeVisible();
  await screens(owner, js, "socios-liquidaciones", problems, helper, out);
  await row.getByRole("link", { name: number }).click();
  await ready(owner, js);
  await expect(owner.getByRole("heading", { level: 1, name: `Liquidación ${number}` })).toBeVisible();
  const lines = owner.locator("table tbody tr");
  const lineCount = await lines.count();
  expect(lineCount).toBeGreaterThan(0);
  await expect(lines.first()).toContainText(/Venta [0-9a-f]{8} del/);
  await screens(owner, js, "socios-liquidacion", problems, helper, out);

  const [csvFile] = await Promise.all([owner.waitForEvent("download"), owner.getByRole("link", { name: "Descargar CSV" }).click()]);
  expect(csvFile.suggestedFilename()).toBe(`liquidacion-${number}.csv`);
  const csv = (await readFile(await csvFile.path()))
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .map((r) => r.split(";"));
  expect(csv).toHaveLength(1 + lineCount + 1);
  expect(csv.slice(1, -1).every((r) => r[0] === number)).toBe(true);
  expect(csv.at(-1)).toContain("Total");
  const gross = await owner.locator(".terms-list div", { hasText: "Importe bruto" }).locator("dd").innerText();
  expect(csv.at(-1)).toContain(gross.replace(/\s*€$/, "").trim());

  const [pdfFile] = await Promise.all([owner.waitForEvent("download"), owner.getByRole("link", { name: "Descargar PDF" }).click()]);
  expect(pdfFile.suggestedFilename()).toBe(`liquidacion-${number}.pdf`);
  const text = await pdfText(await readFile(await pdfFile.path()));
  expect(text).toContain(number);

  // Staff record the transfer; the owner sees it paid.
  await page.getByLabel("Referencia de la transferencia").fill(`TRF-${js ? "JS" : "NOJS"}-0001`);
  await page.getByRole("button", { name: "Marcar como pagada" }).click();
  await ready(page, js);
  await expect(page.getByText("Pagada").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Marcar como pagada" })).toHaveCount(0);
  await owner.goto("/socios/liquidaciones");
  await ready(owner, js);
  await expect(owner.locator("table tbody tr", { hasText: number }).getByText("Pagada")).toBeVisible();

  await owner.context().close();
  expect(problems).toEqual([]);
});
