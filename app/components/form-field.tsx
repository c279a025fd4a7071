import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

type AnyField = FieldMetadata<unknown>;

/** A form-level error (conform's `form.errors`, e.g. the API refusing the whole form), announced. */
export function FormError({ form }: { form: { errorId: string; errors?: string[] } }) {
  return form.errors?.length ? (
    <p id={form.errorId} className="form-error" role="alert">
      {form.errors[0]}
    </p>
  ) : null;
}

/** The error line under a field: always rendered so a message never moves the next control. */
export function FieldError({ field }: { field: Pick<AnyField, "errors" | "errorId"> }) {
  return (
    <p id={field.errorId} className="field-error">
      {field.errors?.[0]}
    </p>
  );
}

type InputType = "text" | "email" | "tel" | "url" | "number" | "date" | "password" | "search";

/**
 * The schema's constraints that HTML allows on this type of input: conform derives `min`/`max`
 * from a number schema and `pattern` from a regex whatever the input, but `min`/`max` belong to
 * number and date inputs, `pattern` and lengths to text-like ones. The server checks them all anyway.
 */
function validConstraints<P extends React.InputHTMLAttributes<HTMLInputElement>>(props: P, type: InputType): P {
  const { min, max, step, pattern, minLength, maxLength, ...rest } = props;
  return (type === "number" || type === "date" ? { ...rest, min, max, step } : { ...rest, pattern, minLength, maxLength }) as P;
}

/** A labelled input wired to conform: name, native constraints, aria-invalid and aria-describedby. */
export function TextField({
  field,
  label,
  type = "text",
  hint,
  ...rest
}: { field: AnyField; label: string; type?: InputType; hint?: ReactNode } & Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  "type" | "name" | "id"
>) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...validConstraints(getInputProps(field as FieldMetadata<string>, { type }), type)} {...rest} />
      {hint ? <p className="field-hint">{hint}</p> : null}
      <FieldError field={field} />
    </div>
  );
}

/** The 6-digit code a mail brings: numeric keyboard, and the phone offers the code from the mail. */
export function CodeField({ field }: { field: AnyField }) {
  return (
    <TextField
      field={field}
      label="Código de 6 cifras"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      className="code-input"
    />
  );
}

/** The address a step is for: kept hidden when an earlier step gave it, asked for otherwise. */
export function EmailStepField({ field, email }: { field: AnyField; email: string | null | undefined }) {
  return email ? (
    <input type="hidden" name="email" value={email} />
  ) : (
    <TextField field={field} label="Correo electrónico" type="email" autoComplete="email" />
  );
}

export function TextAreaField({ field, label, rows = 4 }: { field: AnyField; label: string; rows?: number }) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <textarea {...getTextareaProps(field as FieldMetadata<string>)} rows={rows} />
      <FieldError field={field} />
    </div>
  );
}

export function SelectField({
  field,
  label,
  options,
  placeholder,
}: {
  field: AnyField;
  label: string;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select {...getSelectProps(field as FieldMetadata<string>)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError field={field} />
    </div>
  );
}
