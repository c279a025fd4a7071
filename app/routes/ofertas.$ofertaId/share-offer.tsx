import { useEffect, useState } from "react";

type Mode = "links" | "share" | "copy";

/**
 * «Compartir», beside the offer's title. Without JavaScript: a WhatsApp link and the offer's own
 * address as a plain link (to long-press and copy). With it, the phone's share sheet where the
 * browser has one (Web Share API), else WhatsApp and «Copiar enlace».
 */
export function ShareOffer({ url, title }: { url: string; title: string }) {
  const [mode, setMode] = useState<Mode>("links");
  const [copied, setCopied] = useState(false);
  // After hydration: the server cannot know what the browser offers, and the first render must match it.
  useEffect(() => {
    setMode(typeof navigator.share === "function" ? "share" : "copy");
  }, []);
  const whatsapp = `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`;

  const share = () => {
    // A cancelled sheet rejects: nothing to say.
    navigator.share({ title, url }).catch(() => {});
  };
  const copy = () => {
    navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <div className="share-offer" role="group" aria-label="Compartir la oferta">
      {mode === "share" ? (
        <button type="button" className="share-link" onClick={share}>
          Compartir
        </button>
      ) : (
        <>
          <span className="share-label">Compartir:</span>
          <a className="share-link" href={whatsapp} target="_blank" rel="noopener noreferrer">
            WhatsApp
          </a>
          {mode === "copy" ? (
            <button type="button" className="share-link" onClick={copy}>
              Copiar enlace
            </button>
          ) : (
            <a className="share-link" href={url}>
              Enlace de la oferta
            </a>
          )}
          <span role="status" className="share-status">
            {copied ? "Enlace copiado" : ""}
          </span>
        </>
      )}
    </div>
  );
}
