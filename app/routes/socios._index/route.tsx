import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { normalizeCouponCode } from "#rules/coupons";
import { formatDateTime } from "#rules/dates";
import { CouponCodeSchema } from "#contract/partner";
import type { CouponView } from "#contract/partner-responses";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requirePartner } from "#app/portal/partner.server";

/**
 * «Canjear cupón»: the till's screen, for a phone at 375 px first. Checking a code is a GET (it
 * changes nothing, and a reload shows the same answer); «Canjear» is a POST.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartner(request);
  const params = new URL(request.url).searchParams;
  // Shown back as the till's staff would write it (upper case, dashes), so a typo can be seen.
  const typed = params.get("code")?.trim() ?? "";
  const code = normalizeCouponCode(typed) ?? typed;
  const flags = { justRedeemed: params.get("canjeado") === "1", triedAgain: params.get("intento") === "1" };
  const headers = { "Cache-Control": "private, no-store" };
  if (!code) return data({ code, coupon: null, problem: null, ...flags }, { headers });
  try {
    return data({ code, coupon: await partnerApi(request).verifyCoupon(code), problem: null, ...flags }, { headers });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const title = error.status === 404 ? `No existe ningún cupón ${code}` : `«${code}» no es un código de cupón`;
      return data({ code, coupon: null, problem: { title, reason: error.message }, ...flags }, { headers });
    }
    throw error;
  }
}

const RedeemSchema = z.object({ coupon: z.string().uuid(), code: z.string().max(200) });

export async function action({ request }: ActionFunctionArgs) {
  await requirePartner(request);
  const form = await readForm(request);
  const parsed = RedeemSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ redeemError: "No hemos entendido qué cupón canjear. Vuelve a comprobar el código." }, { status: 400 });
  const back = `/socios?code=${encodeURIComponent(normalizeCouponCode(parsed.data.code) ?? parsed.data.code)}`;
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

function Verdict({ coupon, justRedeemed, triedAgain }: { coupon: CouponView; justRedeemed: boolean; triedAgain: boolean }) {
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
        : `Ya se canjeó el ${formatDateTime(coupon.redeemed_at!)}.`
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
    </section>
  );
}

/** With a camera and BarcodeDetector, scan the voucher's QR; without them the field is all there is. */
function QrScanner({ onCode }: { onCode: (code: string) => void }) {
  const [supported, setSupported] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    setSupported("BarcodeDetector" in window && !!navigator.mediaDevices?.getUserMedia);
  }, []);
  useEffect(() => {
    if (!scanning) return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        // BarcodeDetector is not in TypeScript's DOM types yet.
        const Detector = (
          window as unknown as {
            BarcodeDetector: new (o: { formats: string[] }) => { detect: (v: HTMLVideoElement) => Promise<{ rawValue: string }[]> };
          }
        ).BarcodeDetector;
        const detector = new Detector({ formats: ["qr_code"] });
        const tick = async () => {
          if (stopped || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          const code = found.map((f) => normalizeCouponCode(f.rawValue)).find(Boolean);
          if (code) {
            setScanning(false);
            onCode(code);
            return;
          }
          timer = window.setTimeout(tick, 250);
        };
        tick();
      } catch {
        setProblem("No podemos usar la cámara. Escribe el código a mano.");
        setScanning(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [scanning, onCode]);
  if (!supported) return null;
  return (
    <div className="qr-scanner">
      {scanning ? (
        <>
          <video ref={video} className="qr-video" muted playsInline aria-label="Vista de la cámara" />
          <button type="button" className="btn btn-secondary btn-block" onClick={() => setScanning(false)}>
            Cerrar la cámara
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-secondary btn-block" onClick={() => setScanning(true)}>
          Escanear el QR con la cámara
        </button>
      )}
      {problem ? <p className="field-error">{problem}</p> : null}
    </div>
  );
}

export default function RedeemCoupon() {
  const { code, coupon, problem, justRedeemed, triedAgain } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm({
    id: "coupon-check",
    constraint: getZodConstraint(CouponCodeSchema),
    defaultValue: { code },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CouponCodeSchema }),
  });
  return (
    <div className="redeem">
      <h1>Canjear cupón</h1>
      <Form method="get" action="/socios" className="redeem-form" ref={formRef} {...getFormProps(form)}>
        <div className="field">
          <label htmlFor={fields.code.id}>Código del cupón</label>
          <input
            {...getInputProps(fields.code, { type: "text" })}
            key={code}
            // The code just checked, also after a check with JavaScript (the form's own default
            // is the one the page first loaded with).
            defaultValue={code}
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
      {actionData && "redeemError" in actionData ? (
        <p className="verdict verdict-bad verdict-title" role="alert">
          {actionData.redeemError}
        </p>
      ) : null}
      {problem ? (
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
      ) : null}
      {coupon ? <Verdict coupon={coupon} justRedeemed={justRedeemed} triedAgain={triedAgain} /> : null}
    </div>
  );
}
