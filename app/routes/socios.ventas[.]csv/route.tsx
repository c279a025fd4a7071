import type { LoaderFunctionArgs } from "@remix-run/node";
import { SalesFilterSchema } from "#contract/partner";
import { partnerApi, requirePartnerTo } from "#app/portal/partner.server";

/**
 * «Descargar CSV»: the API's export, fetched with the partner's session and passed through, so the
 * browser downloads it from the shop's own address and never sees a token.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "sales.read");
  const parsed = SalesFilterSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = parsed.success ? parsed.data : {};
  const file = await partnerApi(request).salesCsv({
    date_from: filter.date_from ?? undefined,
    date_to: filter.date_to ?? undefined,
    offer: filter.offer ?? undefined,
  });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.headers.get("Content-Type") ?? "text/csv; charset=utf-8",
      "Content-Disposition": file.headers.get("Content-Disposition") ?? 'attachment; filename="ventas.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
