import { HoneypotInputs } from "remix-utils/honeypot/react";

/**
 * The honeypot of the public forms (remix-utils): put it inside the <Form>, and read that form
 * with readForm(request, { honeypot: true }).
 */
export function Honeypot() {
  return <HoneypotInputs label="No rellenes este campo" />;
}
