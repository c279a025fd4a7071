import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { PromoCodeSchema } from "#contract/partner";
import { isUuid } from "#rules/uuid";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { keepChosen, offerChoices } from "./offer-choices.server";
import { orNotFound, partnerApi, requirePartnerTo, requireStaff } from "./partner.server";
import { redirectWithToast } from "#app/state/session.server";

/**
 * «Códigos promocionales» is one screen in two places: a partner's (/socios/codigos, codes of its
 * own offers) and staff's (/admin/codigos, every code, and codes for the whole shop). The API
 * decides what each may see and change; these helpers only differ in who may open the page.
 */
export type PromoPortal = "socios" | "admin";

const guard = (portal: PromoPortal, request: Request) =>
  portal === "admin" ? requireStaff(request) : requirePartnerTo(request, "promo-codes.read");
const base = (portal: PromoPortal) => `/${portal}/codigos`;
const noStore = { headers: { "Cache-Control": "private, no-store" } };

export async function promoCodesLoader(portal: PromoPortal, request: Request) {
  await guard(portal, request);
  const client = partnerApi(request);
  const [codes, choices] = await Promise.all([client.promoCodes(), offerChoices(request)]);
  return data({ codes: codes.results, ...choices, shopWide: portal === "admin" }, noStore);
}

export async function promoCodeLoader(portal: PromoPortal, request: Request, id: string | undefined) {
  await guard(portal, request);
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const [code, choices] = await Promise.all([orNotFound(partnerApi(request).promoCode(id)), offerChoices(request)]);
  await keepChosen(choices, code.offer, (id) => code.offer_title ?? id);
  const confirmDelete = new URL(request.url).searchParams.has("borrar");
  return data({ code, ...choices, shopWide: portal === "admin", confirmDelete }, noStore);
}

/** Create (id undefined), save (intent "save") or delete (intent "delete", after the confirmation step). */
export async function promoCodeAction(portal: PromoPortal, request: Request, id?: string) {
  await guard(portal, request);
  if (id !== undefined && !isUuid(id)) throw new Response("Not Found", { status: 404 });
  const client = partnerApi(request);
  const form = await readForm(request);
  if (id && form.get("intent") === "delete") {
    try {
      await orNotFound(client.deletePromoCode(id));
    } catch (error) {
      if (error instanceof ApiError && error.status < 500)
        return redirectWithToast(`${base(portal)}/${id}`, { type: "error", text: error.message }, request);
      throw error;
    }
    return redirectWithToast(base(portal), { type: "success", text: "Código promocional borrado." }, request);
  }
  const submission = parseWithZod(form, { schema: PromoCodeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const saved = id ? await orNotFound(client.updatePromoCode(id, submission.value)) : await client.createPromoCode(submission.value);
    return redirectWithToast(
      base(portal),
      { type: "success", text: id ? `Código ${saved.code} guardado.` : `Código ${saved.code} creado.` },
      request,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      // A code that is taken is said next to «Código»; anything else above the form.
      const code = (error.body as { errors?: { code?: string[] } } | null)?.errors?.code;
      return data(submission.reply(code ? { fieldErrors: { code } } : { formErrors: [error.message] }), { status: error.status });
    }
    throw error;
  }
}
