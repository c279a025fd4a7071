import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { PROVINCES } from "#rules/regions";
import { OrganizationSchema } from "#contract/partner";
import type { Organization } from "#contract/partner-responses";
import { FormError, SelectField, TextField } from "#app/components/form-field";

const provinceOptions = PROVINCES.map((p) => ({ value: p, label: p }));

/** An organisation's details (staff create and edit them on /admin/organizaciones). */
export function OrganizationForm({
  organization,
  lastResult,
}: {
  organization: Organization | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: organization ? `org-${organization.uuid}` : "org-new",
    lastResult,
    constraint: getZodConstraint(OrganizationSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      name: organization?.name ?? "",
      tax_id: organization?.tax_id ?? "",
      email: organization?.email ?? "",
      phone: organization?.phone ?? "",
      website: organization?.website ?? "",
      address: organization?.address ?? "",
      province: organization?.province ?? "",
      logo: organization?.logo ?? "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrganizationSchema }),
  });
  return (
    <Form method="post" className="stack-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      <FormError form={form} />
      <div className="form-grid">
        <TextField field={fields.name} label="Nombre" autoComplete="organization" />
        <TextField field={fields.tax_id} label="CIF o NIF" autoCapitalize="characters" hint="Por ejemplo B12345674." />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
        <TextField field={fields.phone} label="Teléfono" type="tel" autoComplete="tel" />
        <TextField field={fields.website} label="Web" inputMode="url" />
        <TextField field={fields.address} label="Dirección" autoComplete="address-line1" />
        <SelectField field={fields.province} label="Provincia" options={provinceOptions} placeholder="Sin provincia" />
        <TextField field={fields.logo} label="Logotipo (dirección https)" inputMode="url" />
      </div>
      <div className="row-actions">
        <button type="submit" className="btn">
          {organization ? "Guardar cambios" : "Crear organización"}
        </button>
      </div>
    </Form>
  );
}
