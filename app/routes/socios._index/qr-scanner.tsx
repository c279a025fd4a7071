import { useEffect, useRef, useState } from "react";
import { detectVoucherCode, hasCamera, qrDetector } from "./detect-voucher-code";

const REOPEN = "till-scan-after-reload";

/**
 * The camera and WebAssembly are allowed only in documents the server sent for the portal
 * (server/security.ts); a till reached by a link from elsewhere keeps the first document's policy.
 */
function loadedInPortal(): boolean {
  const entry = performance.getEntriesByType("navigation")[0];
  const path = entry ? new URL(entry.name).pathname : window.location.pathname;
  return path === "/socios" || path.startsWith("/socios/");
}

/**
 * With a camera, scan the voucher's QR: the browser's BarcodeDetector where it has one, ZXing
 * (loaded when the camera opens) where it does not. Without a camera the field is all there is.
 */
export function QrScanner({ onCode }: { onCode: (code: string) => void }) {
  const [supported, setSupported] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  // The page hands a new callback each render; the camera must not restart for it.
  const latestOnCode = useRef(onCode);
  latestOnCode.current = onCode;
  useEffect(() => {
    setSupported(hasCamera());
    if (sessionStorage.getItem(REOPEN)) {
      sessionStorage.removeItem(REOPEN);
      setScanning(true);
    }
  }, []);
  const open = () => {
    if (loadedInPortal()) return setScanning(true);
    // Reload as the till's own document, and open the camera there.
    sessionStorage.setItem(REOPEN, "1");
    window.location.reload();
  };
  useEffect(() => {
    if (!scanning) return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    (async () => {
      try {
        setProblem(null);
        // The reader loads while the phone asks for the camera.
        const detector = qrDetector();
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        await detector;
        let failures = 0;
        const tick = async () => {
          if (stopped || !video.current) return;
          let code: string | null = null;
          try {
            code = await detectVoucherCode(video.current, detector);
            failures = 0;
          } catch {
            failures += 1;
          }
          if (stopped) return;
          // A reader that keeps failing (its WebAssembly refused or not loaded) will not recover.
          if (failures >= 3) {
            setProblem("No podemos leer el QR en este navegador. Escribe el código a mano.");
            setScanning(false);
            return;
          }
          if (code) {
            setScanning(false);
            latestOnCode.current(code);
            return;
          }
          timer = window.setTimeout(tick, 250);
        };
        tick();
      } catch {
        if (stopped) return;
        setProblem("No podemos usar la cámara. Escribe el código a mano.");
        setScanning(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [scanning]);
  if (!supported) return null;
  return (
    <div className="qr-scanner">
      {scanning ? (
        <>
          <video ref={video} className="qr-video" muted playsInline aria-label="Vista de la cámara" />
          <p className="field-hint" role="status">
            Apunta al QR del cupón.
          </p>
          <button type="button" className="btn btn-secondary btn-block" onClick={() => setScanning(false)}>
            Cerrar la cámara
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-secondary btn-block" onClick={open}>
          Escanear el QR
        </button>
      )}
      {problem ? <p className="field-error">{problem}</p> : null}
    </div>
  );
}
