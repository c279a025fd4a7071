import type { ActionFunctionArgs } from "@remix-run/node";
import { startPayment } from "#app/routes/order+shared/payment.server";

export const loader = () => new Response(null, { status: 405, headers: { Allow: "POST" } });

/**
 * PayPal's JS SDK buttons (createOrder) ask here for the order to approve: the same sale the
 * «Pagar» form would create, answered as JSON. After approval the buyer goes to the sale's
 * /order/success, which captures exactly as after the redirect flow.
 */
export async function action({ request }: ActionFunctionArgs) {
  const started = await startPayment(request);
  // Responses, not data(): from this resource route data() lost its status and Set-Cookie headers.
  if (!started.ok) {
    // The toast is in the Set-Cookie; the buttons send the buyer to /checkout to read it.
    const headers = new Headers();
    for (const cookie of started.response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return Response.json({ error: "/checkout/" }, { status: 409, headers });
  }
  const { payment, headers } = started;
  if (payment.provider !== "paypal" || !payment.provider_ref) return Response.json({ error: "/checkout/" }, { status: 409, headers });
  return Response.json(
    { orderId: payment.provider_ref, successUrl: `/order/success?transaction_id=${payment.transaction_id}` },
    { headers },
  );
}
