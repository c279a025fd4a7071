import { bookingLines, hasContact, telHref, websiteHref, websiteLabel, type MerchantContact } from "#rules/merchant-contact";

/**
 * «Reservar»: how to book with the merchant, as links a phone can act on (call, write, open the
 * website), each a 44 px target; the conditions' lines about booking ahead above them.
 */
export function MerchantContactBlock({
  merchant,
  contact,
  conditions,
  heading: Heading = "h2",
  className = "",
}: {
  merchant: string;
  contact: MerchantContact;
  conditions: string;
  heading?: "h2" | "h3";
  className?: string;
}) {
  const booking = bookingLines(conditions);
  if (!hasContact(contact) && !booking.length) return null;
  return (
    <section className={`merchant-contact ${className}`.trim()} aria-label={`Reservar en ${merchant}`}>
      <Heading className="merchant-contact-title">Reservar</Heading>
      {booking.map((line, i) => (
        <p key={i} className="merchant-contact-note">
          {line}
        </p>
      ))}
      {hasContact(contact) ? (
        <ul className="merchant-contact-links">
          {contact.phone ? (
            <li>
              {/* The visible words are the number only, spaces unbroken, as a dialer reads it; the name says what it does. */}
              <a className="btn merchant-contact-call" href={telHref(contact.phone)} aria-label={`Llamar para reservar: ${contact.phone}`}>
                {contact.phone.replace(/ /g, "\u00a0")}
              </a>
            </li>
          ) : null}
          {contact.email ? (
            <li>
              <a className="btn btn-secondary" href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
            </li>
          ) : null}
          {contact.website ? (
            <li>
              <a className="btn btn-secondary" href={websiteHref(contact.website)} rel="noopener" target="_blank">
                {websiteLabel(contact.website)}
                <span className="visually-hidden"> (se abre en otra pestaña)</span>
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}
