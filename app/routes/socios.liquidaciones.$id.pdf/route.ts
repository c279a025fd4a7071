import type { LoaderFunctionArgs } from "@remix-run/node";
import { statementFile } from "#app/portal/statement-files.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => statementFile(request, params.id, "pdf");
