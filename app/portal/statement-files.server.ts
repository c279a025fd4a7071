import { isUuid } from "#rules/uuid";
import { orNotFound, partnerApi, requireRole } from "#app/portal/partner.server";

/**
 * «Descargar CSV / PDF»: the API's file, fetched with the caller's session and passed through, so
 * the browser downloads it from the shop's own address and never sees a token. The API decides
 * who may read it (the organisation's members and staff).
 */
export async function statementFile(request: Request, id: string | undefined, ext: "csv" | "pdf"): Promise<Response> {
  await requireRole(request, ["partner", "staff"]);
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const file = await orNotFound(partnerApi(request).statementFile(id, ext));
  return new Response(file.body, {
    headers: {
      "Content-Type": file.headers.get("Content-Type") ?? (ext === "csv" ? "text/csv; charset=utf-8" : "application/pdf"),
      "Content-Disposition": file.headers.get("Content-Disposition") ?? `attachment; filename="liquidacion.${ext}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
