/**
 * The sizes the shop shows a photo at: the offer page and the cards on wide screens 800×500; the
 * cards on phones (8.5rem beside the text), the gallery and the cart lines at most ~400 px of
 * device pixels, hence 400×250. Uploads are rendered at both (api/services/images.ts), and so are
 * the demo catalogue's pictures (scripts/generate-demo-images.mjs).
 */
export const LARGE_PHOTO = { width: 800, height: 500 } as const;
export const SMALL_PHOTO = { width: 400, height: 250 } as const;
export const PHOTO_SIZES = [LARGE_PHOTO, SMALL_PHOTO] as const;

/** The largest picture a partner may upload: a phone's photo, 2–5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TOO_LARGE = "La imagen pesa más de 5 MB. Redúcela y vuelve a subirla.";
/** A gallery, not a photo library: the offer page shows them all. */
export const MAX_IMAGES_PER_OFFER = 20;
export const TOO_MANY_IMAGES = `Una oferta puede tener como máximo ${MAX_IMAGES_PER_OFFER} imágenes. Borra alguna antes de subir otra.`;

/** A logo is shown at 40 px at most: one size. */
export const LOGO_SIZE = { width: 160, height: 160 } as const;

/**
 * A `srcset` for a picture that has a small copy (the public image's small_url), or undefined: the
 * browser then takes the small copy wherever the page's `sizes` and the screen's density allow.
 */
export function photoSrcset(image: { image_url: string; small_url: string | null; width: number }): string | undefined {
  return image.small_url ? `${image.small_url} ${SMALL_PHOTO.width}w, ${image.image_url} ${Number(image.width)}w` : undefined;
}

/**
 * Staff approve an offer only with a photo of its own: without one the shop shows the drawn
 * placeholder. The review queue says so before the button; the API refuses with the reason.
 */
export const MISSING_PHOTO = "Falta una foto real";
export const APPROVE_WITHOUT_PHOTO = `${MISSING_PHOTO}: la oferta solo tiene el dibujo provisional. Pide al socio una foto de portada antes de aprobarla.`;
/** An offer has a photo of its own when any of its pictures is not the partner's logo. */
export const hasRealPhoto = (images: readonly { logo: boolean }[]) => images.some((image) => !image.logo);
