import { and, asc, eq, sql } from "drizzle-orm";
import type Sharp from "sharp";
import { query, type Executor, type Transaction } from "#api/db/client";
import { isUniqueViolation } from "#api/db/errors";
import { offerImages, offers } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { inScope, type Scope } from "#api/services/access";
import { IMAGE_TOO_LARGE, LOGO_SIZE, MAX_IMAGE_BYTES, MAX_IMAGES_PER_OFFER, PHOTO_SIZES, TOO_MANY_IMAGES } from "#rules/images";
import type { PartnerImage } from "#contract/partner-responses";

/** A 40-megapixel photo is plenty; more is a decompression bomb, not a picture. */
const MAX_INPUT_PIXELS = 40_000_000;

export const mediaUrl = (id: string) => `/api/v0/media/${id}.webp`;

/** Decided by the bytes, never by the file name or the declared type. */
function sniff(bytes: Uint8Array): "jpeg" | "png" | "webp" | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length > 8 && Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (
    bytes.length > 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString("latin1") === "RIFF" &&
    Buffer.from(bytes.subarray(8, 12)).toString("latin1") === "WEBP"
  )
    return "webp";
  return null;
}

export type Rendition = { bytes: Buffer; width: number; height: number };

/** Checks an upload and renders it as WebP at the shop's sizes; a Spanish 400/413 when it is not a usable picture. */
export async function renderImage(input: Uint8Array, kind: "photo" | "logo"): Promise<Rendition[]> {
  if (input.length === 0) throw new HttpError(400, "Falta la imagen.");
  if (input.length > MAX_IMAGE_BYTES) throw new HttpError(413, IMAGE_TOO_LARGE);
  const format = sniff(input);
  if (!format) throw new HttpError(400, "El archivo no es una imagen JPEG, PNG o WebP.");
  // sharp (libvips) loads with the first upload: most processes never resize a picture.
  const sharp: typeof Sharp = (await import("sharp")).default;
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).metadata();
  } catch {
    throw new HttpError(400, "La imagen está dañada o es demasiado grande (más de 40 megapíxeles).");
  }
  if (!meta.width || !meta.height || meta.format !== format)
    throw new HttpError(400, "El archivo no es una imagen JPEG, PNG o WebP válida.");
  const min = kind === "logo" ? 80 : 400;
  if (meta.width < min || meta.height < min / (kind === "logo" ? 1 : 1.6)) {
    throw new HttpError(400, `La imagen es demasiado pequeña: necesita al menos ${min} píxeles de ancho.`);
  }
  const sizes = kind === "logo" ? [LOGO_SIZE] : PHOTO_SIZES;
  try {
    return await Promise.all(
      sizes.map(async (size) => {
        const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate() // honour the camera's orientation before EXIF is dropped
          .resize(
            size.width,
            size.height,
            kind === "logo"
              ? { fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 0 } }
              : { fit: "cover", position: "attention" },
          )
          .webp({ quality: 78 })
          .toBuffer({ resolveWithObject: true });
        return { bytes: data, width: info.width, height: info.height };
      }),
    );
  } catch {
    throw new HttpError(400, "No hemos podido procesar la imagen. Prueba con otro archivo.");
  }
}

async function storeRendition(db: Executor, offerId: string, r: Rendition): Promise<string> {
  const [row] = await query<{ id: string }>(
    db,
    sql`INSERT INTO media_files (offer_id, content_type, width, height, bytes) VALUES (${offerId}, 'image/webp', ${r.width}, ${r.height}, ${r.bytes}) RETURNING id`,
  );
  return row.id;
}

/**
 * An uploaded file, while its offer may still be shown: an archived offer's pictures are gone from
 * the shop (a deleted offer's files are deleted with it). Drafts and offers in review are served,
 * so their partner and staff see them before they go on sale.
 */
export async function readMedia(db: Executor, id: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  const [row] = await query<{ bytes: Uint8Array; content_type: string }>(
    db,
    sql`SELECT m.bytes, m.content_type FROM media_files m LEFT JOIN offers o ON o.id = m.offer_id
        WHERE m.id = ${id} AND (m.offer_id IS NULL OR o.status <> 'archived')`,
  );
  return row ? { bytes: Buffer.from(row.bytes), contentType: row.content_type } : null;
}

function toImage(i: typeof offerImages.$inferSelect): PartnerImage {
  return {
    uuid: i.id,
    image_url: i.imageUrl,
    cover: i.cover,
    logo: i.logo,
    width: i.width,
    height: i.height,
    alt: i.alt,
    variants: i.variants,
  };
}

const ARCHIVED = "Una oferta archivada no se puede editar.";

async function offerInScope(db: Executor, scope: Scope, offerId: string) {
  const [offer] = await db
    .select({ id: offers.id, status: offers.status })
    .from(offers)
    .where(and(eq(offers.id, offerId), inScope(scope, offers.organizationId)));
  if (!offer) throw notFound("Oferta no encontrada.");
  if (offer.status === "archived") throw new HttpError(409, ARCHIVED);
  return offer;
}

/**
 * Every change to an offer's pictures holds its offer's row lock, so two at once (two portadas,
 * a logo and an upload, the 20th and 21st picture) take turns instead of both passing the checks
 * and meeting the one-cover and one-logo indexes.
 */
async function lockOffer(tx: Transaction, offerId: string, { editing }: { editing: boolean }) {
  const [offer] = await query<{ status: string }>(tx, sql`SELECT status FROM offers WHERE id = ${offerId} FOR UPDATE`);
  if (!offer) throw notFound("Oferta no encontrada.");
  if (editing && offer.status === "archived") throw new HttpError(409, ARCHIVED);
}

/** The locks above make this unreachable; if another writer ever gets past them, a 409, never a 500. */
async function orConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new HttpError(409, "Las imágenes de esta oferta han cambiado a la vez desde otro sitio. Vuelve a intentarlo.");
    throw error;
  }
}

async function imageCount(db: Executor, offerId: string): Promise<{ covers: number; n: number }> {
  const [row] = await query<{ covers: number; n: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE cover)::int AS covers, count(*)::int AS n FROM offer_images WHERE offer_id = ${offerId}`,
  );
  return { covers: Number(row.covers), n: Number(row.n) };
}

export async function listImages(db: Executor, scope: Scope, offerId: string): Promise<PartnerImage[]> {
  const [offer] = await db
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.id, offerId), inScope(scope, offers.organizationId)));
  if (!offer) throw notFound("Oferta no encontrada.");
  const rows = await db
    .select()
    .from(offerImages)
    .where(eq(offerImages.offerId, offerId))
    .orderBy(asc(offerImages.position), asc(offerImages.createdAt));
  return rows.map(toImage);
}

/**
 * One cover and one logo per offer: a new cover (or logo) takes the flag from the old one. The
 * first photo of an offer becomes its cover, so an offer is never without a card picture. At most
 * MAX_IMAGES_PER_OFFER, checked before the picture is resized and again under the lock.
 */
export async function addImage(
  db: Executor,
  scope: Scope,
  input: { offer: string; bytes: Uint8Array; cover: boolean; logo: boolean; alt: string },
): Promise<PartnerImage> {
  if (input.cover && input.logo) throw new HttpError(400, "Una imagen no puede ser a la vez portada y logotipo.");
  await offerInScope(db, scope, input.offer);
  if ((await imageCount(db, input.offer)).n >= MAX_IMAGES_PER_OFFER) throw new HttpError(409, TOO_MANY_IMAGES);
  const renditions = await renderImage(input.bytes, input.logo ? "logo" : "photo");
  return orConflict(() =>
    db.transaction(async (tx) => {
      await lockOffer(tx, input.offer, { editing: true });
      const { covers, n } = await imageCount(tx, input.offer);
      if (n >= MAX_IMAGES_PER_OFFER) throw new HttpError(409, TOO_MANY_IMAGES);
      const ids: string[] = [];
      for (const r of renditions) ids.push(await storeRendition(tx, input.offer, r));
      const [main] = renditions;
      const cover = input.cover || (!input.logo && covers === 0);
      if (cover)
        await tx
          .update(offerImages)
          .set({ cover: false })
          .where(and(eq(offerImages.offerId, input.offer), eq(offerImages.cover, true)));
      if (input.logo)
        await tx
          .update(offerImages)
          .set({ logo: false })
          .where(and(eq(offerImages.offerId, input.offer), eq(offerImages.logo, true)));
      const [row] = await tx
        .insert(offerImages)
        .values({
          offerId: input.offer,
          imageUrl: mediaUrl(ids[0]),
          cover,
          logo: input.logo,
          width: main.width,
          height: main.height,
          alt: input.alt,
          position: n,
          variants: renditions.map((r, i) => ({ url: mediaUrl(ids[i]), width: r.width, height: r.height })),
        })
        .returning();
      return toImage(row);
    }),
  );
}

async function imageInScope(db: Executor, scope: Scope, id: string) {
  const [row] = await db
    .select({ image: offerImages })
    .from(offerImages)
    .innerJoin(offers, eq(offers.id, offerImages.offerId))
    .where(and(eq(offerImages.id, id), inScope(scope, offers.organizationId)));
  if (!row) throw notFound("Imagen no encontrada.");
  return row.image;
}

/** The image as it is now that its offer is locked: another request may have changed or deleted it meanwhile. */
async function imageUnderLock(tx: Transaction, id: string) {
  const [image] = await tx.select().from(offerImages).where(eq(offerImages.id, id));
  if (!image) throw notFound("Imagen no encontrada.");
  return image;
}

export async function updateImage(
  db: Executor,
  scope: Scope,
  id: string,
  change: { cover?: boolean; alt?: string },
): Promise<PartnerImage> {
  const { offerId } = await imageInScope(db, scope, id);
  return orConflict(() =>
    db.transaction(async (tx) => {
      await lockOffer(tx, offerId, { editing: true });
      const image = await imageUnderLock(tx, id);
      if (change.cover && !image.cover) {
        if (image.logo) throw new HttpError(400, "El logotipo no puede ser la portada.");
        await tx
          .update(offerImages)
          .set({ cover: false })
          .where(and(eq(offerImages.offerId, image.offerId), eq(offerImages.cover, true)));
      }
      const [row] = await tx
        .update(offerImages)
        .set({ ...(change.cover !== undefined ? { cover: change.cover } : {}), ...(change.alt !== undefined ? { alt: change.alt } : {}) })
        .where(eq(offerImages.id, id))
        .returning();
      return toImage(row);
    }),
  );
}

export async function deleteImage(db: Executor, scope: Scope, id: string): Promise<void> {
  const { offerId } = await imageInScope(db, scope, id);
  await orConflict(() =>
    db.transaction(async (tx) => {
      await lockOffer(tx, offerId, { editing: false });
      const image = await imageUnderLock(tx, id);
      await tx.delete(offerImages).where(eq(offerImages.id, id));
      const ids = image.variants.map((v) => /([0-9a-f-]{36})\.webp$/.exec(v.url)?.[1]).filter((x): x is string => !!x);
      if (ids.length)
        await tx.execute(
          sql`DELETE FROM media_files WHERE id IN (${sql.join(
            ids.map((i) => sql`${i}::uuid`),
            sql`, `,
          )})`,
        );
      // The next photo becomes the cover, so the offer keeps a card picture.
      if (image.cover) {
        await tx.execute(sql`
          UPDATE offer_images SET cover = true
          WHERE id = (SELECT id FROM offer_images WHERE offer_id = ${image.offerId} AND NOT logo ORDER BY position, created_at LIMIT 1)`);
      }
    }),
  );
}
