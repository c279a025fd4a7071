import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { madridDate } from "#rules/dates";
import { PAYABLE_MOMENT_LABELS, PAYABLE_MOMENTS, type PayableMoment } from "#rules/payable";
import { previousMonth } from "#rules/statements";
import { FormError, SelectField, TextField } from "#app/components/form-field";
import { CommissionFormSchema, IssueMonthFormSchema, IssueRangeFormSchema, PayableFormSchema } from "#app/portal/statement-forms";

export type Which = "month" | "commission" | "payable" | "issue";
type Last = SubmissionResult<string[]> | undefined;

// Days and months in Madrid, as the API dates statements (the UTC day lags an hour or two behind).
const today = () => madridDate(new Date());
const lastMonth = () => previousMonth(new Date());

function Hidden({ intent, organization }: { intent: Which; organization?: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {organization ? <input type="hidden" name="organization" value={organization} /> : null}
    </>
  );
}

export function IssueMonthForm({ lastResult }: { lastResult: Last }) {
  const [form, fields] = useForm({
    id: "issue-month",
    lastResult,
    defaultValue: { month: lastMonth() },
    constraint: getZodConstraint(IssueMonthFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: IssueMonthFormSchema }),
  });
  return (
    <Form method="post" className="filters" {...getFormProps(form)}>
      <Hidden intent="month" />
      <TextField field={fields.month} label="Mes (aaaa-mm)" inputMode="numeric" />
      <FormError form={form} />
      <button type="submit" className="btn">
        Emitir las del mes
      </button>
    </Form>
  );
}

export function CommissionForm({ organization, lastResult }: { organization: string; lastResult: Last }) {
  const [form, fields] = useForm({
    id: `commission-${organization}`,
    lastResult,
    defaultValue: { valid_from: today() },
    constraint: getZodConstraint(CommissionFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CommissionFormSchema }),
  });
  return (
    <Form method="post" className="filters" aria-label="Nueva comisión" {...getFormProps(form)}>
      <Hidden intent="commission" organization={organization} />
      <TextField field={fields.percent} label="Comisión (%)" inputMode="decimal" hint="Por ejemplo 15 o 12,5." />
      <TextField field={fields.fixed} label="Fijo por cupón (€, opcional)" inputMode="decimal" hint="Por ejemplo 0,50." />
      <TextField field={fields.valid_from} label="Desde el día" type="date" hint="Se aplica a las ventas de ese día en adelante." />
      <FormError form={form} />
      <button type="submit" className="btn">
        Guardar comisión
      </button>
    </Form>
  );
}

export function PayableForm({ organization, current, lastResult }: { organization: string; current: PayableMoment; lastResult: Last }) {
  const [form, fields] = useForm({
    id: `payable-${organization}-${current}`,
    lastResult,
    defaultValue: { payable_on: current },
    constraint: getZodConstraint(PayableFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PayableFormSchema }),
  });
  return (
    <Form method="post" className="filters" aria-label="Momento de pago" {...getFormProps(form)}>
      <Hidden intent="payable" organization={organization} />
      <SelectField
        field={fields.payable_on}
        label="Se paga un cupón"
        options={PAYABLE_MOMENTS.map((m) => ({ value: m, label: PAYABLE_MOMENT_LABELS[m] }))}
      />
      <FormError form={form} />
      <button type="submit" className="btn">
        Guardar momento de pago
      </button>
    </Form>
  );
}

export function IssueRangeForm({ organization, lastResult }: { organization: string; lastResult: Last }) {
  const [form, fields] = useForm({
    id: `issue-${organization}`,
    lastResult,
    constraint: getZodConstraint(IssueRangeFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: IssueRangeFormSchema }),
  });
  return (
    <Form method="post" className="filters" aria-label="Liquidación a demanda" {...getFormProps(form)}>
      <Hidden intent="issue" organization={organization} />
      <TextField field={fields.date_from} label="Liquidar desde" type="date" />
      <TextField field={fields.date_to} label="Hasta (incluido)" type="date" hint="Un periodo ya terminado: hasta ayer como muy tarde." />
      <FormError form={form} />
      <button type="submit" className="btn">
        Emitir liquidación
      </button>
    </Form>
  );
}
