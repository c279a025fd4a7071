import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isUuid } from "#rules/uuid";
import { madridDate } from "#rules/dates";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { formatPrice } from "#rules/prices";
import { FormError, TextField } from "#app/components/form-field";
import { Pagination } from "#app/components/pagination";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { loadPage } from "#app/forms/page-param";
import { orNotFound, partnerApi, requireStaff } from "#app/portal/partner.server";
import { PayoutFormSchema } from "#app/portal/statement-forms";
import { StatementHead, StatementLines } from "#app/portal/statement-view";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  seo({ title: data ? `Liquidación ${data.statement.number}` : "Liquidación", description: "Una liquidación y su pago.", noindex: true });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const id = params.id;
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const client = partnerApi(request);
  const [statement, { page, ...lines }] = await Promise.all([
    orNotFound(client.statement(id)),
    orNotFound(loadPage(request, PORTAL_PAGE_SIZE, (q) => client.statementLines(id, q))),
  ]);
  return data({ statement, lines, page }, { headers: { "Cache-Control": "private, no-store" } });
}

/** «Marcar como pagada»: the transfer's day and reference; the same transfer twice is one payout. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireStaff(request);
  const id = params.id;
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const submission = parseWithZod(await readForm(request), { schema: PayoutFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const paid = await orNotFound(partnerApi(request).payStatement(id, submission.value));
    return redirectWithToast(`/admin/liquidaciones/${id}`, { type: "success", text: `Liquidación ${paid.number} pagada.` }, request);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    throw error;
  }
}

function PayoutForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "payout",
    lastResult,
    // Today in Madrid, as the API dates payouts: just after midnight the UTC day is still yesterday.
    defaultValue: { paid_on: madridDate(new Date()) },
    constraint: getZodConstraint(PayoutFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PayoutFormSchema }),
  });
  return (
    <Form method="post" className="filters" {...getFormProps(form)}>
      <TextField field={fields.transfer_reference} label="Referencia de la transferencia" autoComplete="off" />
      <TextField field={fields.paid_on} label="Fecha de la transferencia" type="date" />
      <FormError form={form} />
      <button type="submit" className="btn">
        Marcar como pagada
      </button>
    </Form>
  );
}

export default function StaffStatement() {
  const { statement, lines, page } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const base = `/socios/liquidaciones/${statement.uuid}`;
  return (
    <section className="portal-section">
      <p className="breadcrumbs">
        <Link to="/admin/liquidaciones">Liquidaciones</Link> › {statement.number}
      </p>
      <StatementHead statement={statement} files={{ csv: `${base}/csv`, pdf: `${base}/pdf` }} />
      {statement.payout.state === "pending" ? (
        <section className="buy-box" aria-labelledby="pago">
          <h2 id="pago" style={{ margin: 0 }}>
            Pago de {formatPrice(statement.payable)}
          </h2>
          <p className="muted small">
            A la cuenta <span className="mono">{statement.payout_iban ?? "sin IBAN: pídele a la empresa que lo añada"}</span>
          </p>
          <PayoutForm lastResult={reply} />
        </section>
      ) : null}
      <h2>Líneas</h2>
      <StatementLines lines={lines.results} />
      <Pagination page={page} count={lines.count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de líneas" />
    </section>
  );
}
