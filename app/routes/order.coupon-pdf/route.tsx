import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { couponDownloadSchema } from "./schema";
import { ApiError, customerApi } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { redirectWithToast } from "#app/state/session.server";

// A resource route (no page): its action answers the PDF itself, so the browser saves the file
// from a plain form post, with or without JavaScript.
export const loader = () => redirect("/order/history");

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
