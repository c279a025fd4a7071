import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { PartnerTerms } from "#contract/statements";
import { isUuid } from "#rules/uuid";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { TextField } from "#app/components/form-field";
import { Pagination } from "#app/components/pagination";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { loadPage } from "#app/forms/page-param";
import { partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { IbanFormSchema } from "#app/portal/statement-forms";
import { StatementTable, TermsSummary } from "#app/portal/statement-view";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({ title: "Liquidaciones", description: "Tu comisión, tus liquidaciones y tus cobros.", noindex: true });

/** The owner's terms (one block per organisation) and every statement issued to it, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "statements.read");
  const client = partnerApi(request);
  const [orgs, { page, ...statements }] = await Promise.all([
    client.organizations(),
    loadPage(request, PORTAL_PAGE_SIZE, (q) => client.statements(q)),
  ]);
  const terms = await Promise.all(orgs.results.map((o) => client.terms(o.uuid)));
  return data({ terms, statements, page }, { headers: { "Cache-Control": "private, no-store" } });
}

type Reply = { organization: string; result: SubmissionResult<string[]> };

/** The IBAN payouts go to: checked here by its digits, and again by the API. */
export async function action({ request }: ActionFunctionArgs) {
  await requirePartnerTo(request, "statements.read");
  const form = await readForm(request);
  const organization = String(form.get("organization") ?? "");
  if (!isUuid(organization)) throw new Response("Not Found", { status: 404 });
  const submission = parseWithZod(form, { schema: IbanFormSchema });
  if (submission.status !== "success") return data<Reply>({ organization, result: submission.reply() }, { status: 400 });
  try {
    await partnerApi(request).setIban(organization, submission.value);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data<Reply>({ organization, result: submission.reply({ fieldErrors: { iban: [error.message] } }) }, { status: error.status });
    throw error;
  }
  return redirectWithToast("/socios/liquidaciones", { type: "success", text: "IBAN guardado." }, request);
}

function IbanForm({ terms, lastResult }: { terms: PartnerTerms; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: `iban-${terms.organization.uuid}`,
    lastResult,
    constraint: getZodConstraint(IbanFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: IbanFormSchema }),
  });
  return (
    <Form method="post" className="filters" {...getFormProps(form)}>
      <input type="hidden" name="organization" value={terms.organization.uuid} />
      <TextField
        field={fields.iban}
        label={terms.payout_account ? "Cambiar el IBAN" : "IBAN de la cuenta de cobro"}
        autoComplete="off"
        spellCheck={false}
        hint="Por ejemplo ES91 2100 0418 4502 0005 1332. Se guarda el nuevo; los pagos ya hechos no cambian."
      />
      <button type="submit" className="btn">
        Guardar IBAN
      </button>
    </Form>
  );
}

export default function Statements() {
  const { terms, statements, page } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  return (
    <section className="portal-section">
      <h1>Liquidaciones</h1>
      {terms.map((t) => (
        <section key={t.organization.uuid} className="buy-box" aria-labelledby={`condiciones-${t.organization.uuid}`}>
          <h2 id={`condiciones-${t.organization.uuid}`} style={{ margin: 0 }}>
            Condiciones de {t.organization.name}
          </h2>
          <TermsSummary terms={t} />
          <IbanForm terms={t} lastResult={reply?.organization === t.organization.uuid ? reply.result : undefined} />
        </section>
      ))}
      <h2>Liquidaciones emitidas</h2>
      {statements.results.length === 0 ? (
        <p className="empty-state">
          Todavía no hay liquidaciones. Se emite una el día 1 de cada mes con lo vendido, canjeado y reembolsado el mes anterior.
        </p>
      ) : (
        <StatementTable statements={statements.results} linkTo={(s) => `/socios/liquidaciones/${s.uuid}`} />
      )}
      <Pagination page={page} count={statements.count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de liquidaciones" />
    </section>
  );
}
