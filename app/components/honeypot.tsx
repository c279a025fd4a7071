import { useId } from "react";

/**
 * The field of the public forms that only a bot fills in: hidden from people and from assistive
 * technology. The markup of remix-utils' <HoneypotInputs>, with a valid `autocomplete` and an id
 * of its own per form (a page may carry two such forms).
 */
export const HONEYPOT_FIELD = "name__confirm";

/** Put it inside the <Form>, and read that form with readForm(request, { honeypot: true }). */
export function Honeypot() {
  const id = useId();
  return (
    <div style={{ display: "none" }} aria-hidden="true">
      <label htmlFor={id}>No rellenes este campo</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
    </div>
  );
}
