import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PAGE_SIZE_MAX, PORTAL_PAGE_SIZE } from "#rules/constants";
import { isUuid } from "#rules/uuid";
import { Pagination } from "#app/components/pagination";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { loadPage } from "#app/forms/page-param";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { CommissionFormSchema, IssueMonthFormSchema, IssueRangeFormSchema, PayableFormSchema } from "#app/portal/statement-forms";
import { StatementTable, TermsSummary } from "#app/portal/statement-view";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { CommissionForm, IssueMonthForm, IssueRangeForm, PayableForm, type Which } from "./terms-forms";

export const meta: MetaFunction = () =>
  seo({ title: "Liquidaciones", description: "Comisiones, liquidaciones y pagos a socios.", noindex: true });

const Filter = z.object({ empresa: z.string().optional(), estado: z.enum(["pendientes", "todas"]).catch("todas") });

/**
 * Staff's desk for what partners are owed: the month's run, one organisation's terms (commission,
 * payable moment, a statement on demand) and every statement, or only those waiting for a transfer.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const filter = Filter.parse(Object.fromEntries(url.searchParams));
  const organization = isUuid(filter.empresa) ? filter.empresa : undefined;
  const client = partnerApi(request);
  const [orgs, { page, ...statements }, terms] = await Promise.all([
    client.organizations({ page_size: PAGE_SIZE_MAX }),
    loadPage(request, PORTAL_PAGE_SIZE, (q) =>
      client.statements({ ...q, organization, state: filter.estado === "pendientes" ? "pending" : undefined }),
    ),
    organization ? client.terms(organization).catch(() => null) : null,
  ]);
  return data(
    { orgs: orgs.results.map((o) => ({ value: o.uuid, label: o.name })), statements, page, terms, estado: filter.estado, organization },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Reply = { form: Which; result: SubmissionResult<string[]> };

/** Four forms, one action: the month's run, a commission, the payable moment, a statement on demand. */
export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "") as Which;
  const organization = String(form.get("organization") ?? "");
  const back = isUuid(organization) ? `/admin/liquidaciones?empresa=${organization}` : "/admin/liquidaciones";
  const client = partnerApi(request);
  const failed = (error: unknown, reply: (msg: string) => SubmissionResult<string[]>) => {
    if (error instanceof ApiError && error.status < 500)
      return data<Reply>({ form: intent, result: reply(error.message) }, { status: error.status });
    throw error;
  };
  if (intent === "month") {
    const submission = parseWithZod(form, { schema: IssueMonthFormSchema });
    if (submission.status !== "success") return data<Reply>({ form: intent, result: submission.reply() }, { status: 400 });
    try {
      const run = await client.issueMonth(submission.value.month);
      const text = `${submission.value.month}: ${run.issued} emitidas, ${run.already} ya emitidas, ${run.nothing} sin movimientos${run.failed ? `, ${run.failed} fallidas (se reintentan)` : ""}.`;
      return redirectWithToast(back, { type: run.failed ? "error" : "success", text }, request);
    } catch (error) {
      return failed(error, (msg) => submission.reply({ formErrors: [msg] }));
    }
  }
  if (!isUuid(organization)) throw new Response("Not Found", { status: 404 });
  if (intent === "commission") {
    const submission = parseWithZod(form, { schema: CommissionFormSchema });
    if (submission.status !== "success") return data<Reply>({ form: intent, result: submission.reply() }, { status: 400 });
    try {
      await client.setCommission(organization, submission.value);
    } catch (error) {
      return failed(error, (msg) => submission.reply({ formErrors: [msg] }));
    }
    return redirectWithToast(back, { type: "success", text: "Comisión guardada." }, request);
  }
  if (intent === "payable") {
    const submission = parseWithZod(form, { schema: PayableFormSchema });
    if (submission.status !== "success") return data<Reply>({ form: intent, result: submission.reply() }, { status: 400 });
    try {
      await client.setPayableOn(organization, submission.value);
    } catch (error) {
      return failed(error, (msg) => submission.reply({ formErrors: [msg] }));
    }
    return redirectWithToast(back, { type: "success", text: "Momento de pago guardado." }, request);
  }
  const submission = parseWithZod(form, { schema: IssueRangeFormSchema });
  if (submission.status !== "success") return data<Reply>({ form: "issue", result: submission.reply() }, { status: 400 });
  try {
    const statement = await client.issueStatement(submission.value);
    return redirectWithToast(
      `/admin/liquidaciones/${statement.uuid}`,
      { type: "success", text: `Liquidación ${statement.number} emitida.` },
      request,
    );
  } catch (error) {
    return failed(error, (msg) => submission.reply({ formErrors: [msg] }));
  }
}

export default function StaffStatements() {
  const { orgs, statements, page, terms, estado, organization } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const last = (which: Which) => (reply?.form === which ? reply.result : undefined);
  return (
    <section className="portal-section">
      <h1>Liquidaciones</h1>
      <section className="buy-box" aria-labelledby="mes">
        <h2 id="mes" style={{ margin: 0 }}>
          Liquidaciones del mes
        </h2>
        <p className="muted small">Se emiten solas el día 1; emitirlas de nuevo solo crea las que falten.</p>
        <IssueMonthForm lastResult={last("month")} />
      </section>
      <section className="buy-box" aria-labelledby="empresa">
        <h2 id="empresa" style={{ margin: 0 }}>
          Condiciones de una empresa
        </h2>
        <Form method="get" className="filters">
          <div className="field">
            <label htmlFor="empresa-elegida">Empresa</label>
            <select id="empresa-elegida" name="empresa" defaultValue={organization ?? ""}>
              <option value="">Elige una empresa</option>
              {orgs.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-secondary">
            Ver condiciones
          </button>
        </Form>
        {terms ? (
          <>
            <TermsSummary terms={terms} />
            <CommissionForm organization={terms.organization.uuid} lastResult={last("commission")} />
            <PayableForm organization={terms.organization.uuid} current={terms.payable_on} lastResult={last("payable")} />
            <IssueRangeForm organization={terms.organization.uuid} lastResult={last("issue")} />
          </>
        ) : null}
      </section>
      <div className="portal-head">
        <h2>{estado === "pendientes" ? "Pendientes de pago" : "Todas las liquidaciones"}</h2>
        <Form method="get" className="inline-form">
          {organization ? <input type="hidden" name="empresa" value={organization} /> : null}
          <input type="hidden" name="estado" value={estado === "pendientes" ? "todas" : "pendientes"} />
          <button type="submit" className="btn btn-small btn-secondary">
            {estado === "pendientes" ? "Ver todas" : "Ver solo pendientes de pago"}
          </button>
        </Form>
      </div>
      {statements.results.length === 0 ? (
        <p className="empty-state">No hay liquidaciones {estado === "pendientes" ? "pendientes de pago" : "emitidas"}.</p>
      ) : (
        <StatementTable statements={statements.results} linkTo={(s) => `/admin/liquidaciones/${s.uuid}`} showOrganization />
      )}
      <Pagination page={page} count={statements.count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de liquidaciones" />
    </section>
  );
}
