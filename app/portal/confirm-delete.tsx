import { Form, Link } from "@remix-run/react";

/** The second step of a delete: a plain page section, so it works the same with JavaScript off. */
export function ConfirmDelete({
  question,
  detail,
  cancelTo,
  confirmLabel,
  hidden = {},
}: {
  question: string;
  detail?: string;
  cancelTo: string;
  confirmLabel: string;
  hidden?: Record<string, string>;
}) {
  return (
    <section className="confirm-box" aria-labelledby="confirm-title" aria-describedby={detail ? "confirm-detail" : undefined}>
      <h2 id="confirm-title" style={{ margin: 0 }}>
        {question}
      </h2>
      {detail ? <p id="confirm-detail">{detail}</p> : null}
      <div className="row-actions">
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="delete" />
          {Object.entries(hidden).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" className="btn btn-danger">
            {confirmLabel}
          </button>
        </Form>
        <Link to={cancelTo} className="btn btn-secondary">
          Cancelar
        </Link>
      </div>
    </section>
  );
}
