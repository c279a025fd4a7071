import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isUuid } from "#rules/uuid";
import { couponDownloadSchema } from "./schema";
import { ApiError, customerApi, salesApi } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { redirectWithToast } from "#app/state/session.server";

// A resource route (no page): it answers the PDF itself, so the browser saves the file from a link
// or a plain form post, with or without JavaScript.

const NOT_FOUND = "Este enlace no es válido o está incompleto. Usa el botón «Ver mis cupones» del correo de tu compra.";

/**
 * GET ?sale=…&sig=…: every voucher of a purchase, by the signed link of its coupons page (a guest's
 * key, as in the purchase mail). Private, no-store, as the page: the offline worker keeps it once
 * opened, no other cache does. Without those, «Mis pedidos».
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const sale = params.get("sale");
  const sig = params.get("sig");
  if (!sale || !sig) return redirect("/order/history");
  const notFound = () =>
    new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const gift = params.get("gift") ?? undefined;
  if (!isUuid(sale) || (gift !== undefined && !isUuid(gift))) return notFound();
  try {
    const pdf = await salesApi.signedVouchers(sale.toLowerCase(), sig, gift?.toLowerCase());
    return new Response(pdf.body, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": pdf.headers.get("content-disposition") ?? 'attachment; filename="cupones.pdf"',
        "Cache-Control": "private, no-store",
        "Referrer-Policy": "no-referrer",
      },
    });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return notFound();
    throw error;
  }
}

/** «Descargar PDF»: the API builds the voucher, for its owner only; the browser saves the file. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const parsed = couponDownloadSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return redirectWithToast("/order/history", { type: "error", text: parsed.error.issues[0].message }, request);
  try {
    const pdf = await customerApi.downloadCoupon(parsed.data.coupon, request);
    return new Response(pdf.body, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": pdf.headers.get("content-disposition") ?? 'attachment; filename="cupon.pdf"',
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return redirectWithToast("/order/history", { type: "error", text: error.message }, request);
    throw error;
  }
}
