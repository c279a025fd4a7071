import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { z } from "zod";
import { normalizeCouponCode, redeemedWhenAndBy } from "#rules/coupons";
import { formatDateTime } from "#rules/dates";
import { CouponCodeSchema } from "#contract/partner";
import { UNDO_MINUTES } from "#rules/partner-roles";
import type { CouponView } from "#contract/partner-responses";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requirePartner } from "#app/portal/partner.server";
import { QrScanner } from "./qr-scanner";
import { BuyerSearch, TodayList } from "./today-list";

/**
 * «Canjear cupón»: the till's screen, for a phone at 375 px first. Checking a code is a GET (it
 * changes nothing, and a reload shows the same answer); «Canjear» is a POST.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartner(request);
  const api = partnerApi(request);
  const params = new URL(request.url).searchParams;
  // Shown back as the till's staff would write it (upper case, dashes), so a typo can be seen.
  const typed = params.get("code")?.trim() ?? "";
  const code = normalizeCouponCode(typed) ?? typed;
  const flags = {
    justRedeemed: params.get("canjeado") === "1",
    triedAgain: params.get("intento") === "1",
    undone: params.get("deshecho") === "1",
  };
  const headers = { "Cache-Control": "private, no-store" };
  const [today, search] = await Promise.all([api.redeemedToday(), findByBuyer(api, params.get("cliente"))]);
  const rest = { today, search, ...flags };
  if (!code) return data({ code, coupon: null, problem: null, ...rest }, { headers });
  try {
    return data({ code, coupon: await api.verifyCoupon(code), problem: null, ...rest }, { headers });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const title = error.status === 404 ? `No existe ningún cupón ${code}` : `«${code}» no es un código de cupón`;
      return data({ code, coupon: null, problem: { title, reason: error.message }, ...rest }, { headers });
    }
    throw error;
  }
}

/** The search when the code is lost; the API says what is wrong with a too short name. */
async function findByBuyer(api: ReturnType<typeof partnerApi>, text: string | null) {
  if (text === null) return null;
  try {
    return { text, results: (await api.findCoupons(text)).results, problem: null };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { text, results: [], problem: error.message };
    throw error;
  }
}

const RedeemSchema = z.object({
  coupon: z.string().uuid(),
  code: z.string().max(200),
  intent: z.enum(["redeem", "undo"]).default("redeem"),
});

export async function action({ request }: ActionFunctionArgs) {
  await requirePartner(request);
  const form = await readForm(request);
  const parsed = RedeemSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ redeemError: "No hemos entendido qué cupón canjear. Vuelve a comprobar el código." }, { status: 400 });
  const back = `/socios?code=${encodeURIComponent(normalizeCouponCode(parsed.data.code) ?? parsed.data.code)}`;
  if (parsed.data.intent === "undo") {
    try {
      await partnerApi(request).undoRedemption(parsed.data.coupon);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return data({ redeemError: error.message }, { status: error.status });
      throw error;
    }
    return redirect(`${back}&deshecho=1`, 303);
  }
  try {
    await partnerApi(request).redeem(parsed.data.coupon);
  } catch (error) {
    // Already redeemed (or refunded) since it was checked: the page shows why, from the API.
    if (error instanceof ApiError && error.status === 409) return redirect(`${back}&intento=1`, 303);
    if (error instanceof ApiError && error.status < 500) return data({ redeemError: error.message }, { status: error.status });
    throw error;
  }
  return redirect(`${back}&canjeado=1`, 303);
}

function Verdict({
  coupon,
  justRedeemed,
  triedAgain,
  undone,
}: {
  coupon: CouponView;
  justRedeemed: boolean;
  triedAgain: boolean;
  undone: boolean;
}) {
  const navigation = useNavigation();
  const details = (
    <dl className="coupon-details">
      <dt>Oferta</dt>
      <dd>{coupon.offer.title}</dd>
      <dt>Opción</dt>
      <dd>{coupon.option.title}</dd>
      {coupon.buyer_first_name ? (
        <>
          <dt>Cliente</dt>
          <dd>{coupon.buyer_first_name}</dd>
        </>
      ) : null}
      <dt>Código</dt>
      <dd className="mono">{coupon.code}</dd>
    </dl>
  );
  if (coupon.state === "valid") {
    return (
      <section className="verdict verdict-ok" aria-labelledby="verdict-title" role="status">
        {undone ? <p className="verdict-reason">Canjeo deshecho: el cupón vuelve a ser válido.</p> : null}
        <p id="verdict-title" className="verdict-title">
          <span aria-hidden="true">✓</span> Cupón válido
        </p>
        {details}
        <Form method="post" action="/socios?index">
          <input type="hidden" name="coupon" value={coupon.uuid} />
          <input type="hidden" name="code" value={coupon.code} />
          <button type="submit" className="btn btn-large btn-block btn-redeem" disabled={navigation.state === "submitting"}>
            Canjear
          </button>
        </Form>
      </section>
    );
  }
  const reason =
    coupon.state === "redeemed"
      ? justRedeemed
        ? `Canjeado ahora, el ${formatDateTime(coupon.redeemed_at!)}.`
        : `Ya se canjeó ${redeemedWhenAndBy(coupon)}.`
      : coupon.state === "expired"
        ? `Caducó el ${coupon.offer.valid_until ?? ""}.`
        : "La compra se ha reembolsado: este cupón ya no es válido.";
  const ok = coupon.state === "redeemed" && justRedeemed;
  return (
    <section className={`verdict ${ok ? "verdict-done" : "verdict-bad"}`} aria-labelledby="verdict-title" role={ok ? "status" : "alert"}>
      <p id="verdict-title" className="verdict-title">
        <span aria-hidden="true">{ok ? "✓" : "✕"}</span>{" "}
        {ok ? "Cupón canjeado" : coupon.state === "redeemed" ? "Cupón ya canjeado" : "Cupón no válido"}
      </p>
      <p className="verdict-reason">{triedAgain && !ok ? `No se ha vuelto a canjear. ${reason}` : reason}</p>
      {details}
      {ok ? (
        // A wrong code pressed in a queue: the member who redeemed it may take it back for a while (the API decides).
        <Form method="post" action="/socios?index">
          <input type="hidden" name="intent" value="undo" />
          <input type="hidden" name="coupon" value={coupon.uuid} />
          <input type="hidden" name="code" value={coupon.code} />
          <button type="submit" className="btn btn-secondary" disabled={navigation.state === "submitting"}>
            Deshacer
          </button>
          <span className="muted small"> Durante {UNDO_MINUTES} minutos.</span>
        </Form>
      ) : null}
    </section>
  );
}

export default function RedeemCoupon() {
  const { code, coupon, problem, justRedeemed, triedAgain, undone, today, search } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  // After a redemption the queue moves on: its verdict stays on top, the field is empty for the next.
  const next = justRedeemed && coupon?.state === "redeemed";
  const fieldCode = next ? "" : code;
  const [form, fields] = useForm({
    id: "coupon-check",
    constraint: getZodConstraint(CouponCodeSchema),
    defaultValue: { code: fieldCode },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CouponCodeSchema }),
  });
  const verdict = (
    <>
      {actionData && "redeemError" in actionData ? (
        <p className="verdict verdict-bad verdict-title" role="alert">
          {actionData.redeemError}
        </p>
      ) : null}
      {problem ? <Problem code={code} problem={problem} /> : null}
      {coupon ? <Verdict coupon={coupon} justRedeemed={justRedeemed} triedAgain={triedAgain} undone={undone} /> : null}
    </>
  );
  return (
    <div className="redeem">
      <h1>Canjear cupón</h1>
      {next ? verdict : null}
      {next ? <h2 className="redeem-next">Canjear otro</h2> : null}
      <Form method="get" action="/socios" className="redeem-form" ref={formRef} {...getFormProps(form)}>
        <div className="field">
          <label htmlFor={fields.code.id}>Código del cupón</label>
          <input
            {...getInputProps(fields.code, { type: "text" })}
            key={`${fieldCode}|${next ? coupon?.uuid : ""}`}
            // The code just checked, also after a check with JavaScript (the form's own default
            // is the one the page first loaded with); empty and ready for the next after a redemption.
            defaultValue={fieldCode}
            autoFocus={next}
            className="code-input coupon-code-input"
            inputMode="text"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            placeholder="p. ej. ABCD-EFGH-JKLM"
          />
          <p className="field-hint">Con o sin guiones.</p>
          <p id={fields.code.errorId} className="field-error">
            {fields.code.errors?.[0]}
          </p>
        </div>
        <button type="submit" className="btn btn-large btn-block">
          Comprobar
        </button>
      </Form>
      <QrScanner
        onCode={(scanned) => {
          const input = formRef.current?.elements.namedItem("code") as HTMLInputElement | null;
          if (input) input.value = scanned;
          formRef.current?.requestSubmit();
        }}
      />
      {next ? null : verdict}
      <TodayList today={today} />
      <BuyerSearch search={search} />
    </div>
  );
}

function Problem({ code, problem }: { code: string; problem: { title: string; reason: string } }) {
  return (
    <section className="verdict verdict-bad" role="alert">
      <p className="verdict-title">
        <span aria-hidden="true">✕</span> {/* One flex item, the words and the code together; the code never breaks at its dashes. */}
        <span>
          {problem.title.split(code).flatMap((part, i) =>
            i
              ? [
                  <span key={i} className="nowrap">
                    {code}
                  </span>,
                  part,
                ]
              : [part],
          )}
        </span>
      </p>
      <p className="verdict-reason">{problem.reason}</p>
    </section>
  );
}
