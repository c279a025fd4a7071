import { useEffect, useRef, useState } from "react";
import { normalizeCouponCode } from "#rules/coupons";

/** With a camera and BarcodeDetector, scan the voucher's QR; without them the field is all there is. */
export function QrScanner({ onCode }: { onCode: (code: string) => void }) {
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
