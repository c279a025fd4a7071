import express, { Router, type NextFunction, type Request, type Response as ExpressResponse } from "express";
import { z } from "zod";
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "#rules/text";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "#rules/images";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { badRequest, handle, HttpError, idParam, notFound, parseInput } from "#api/http";
import type { PartnerAction } from "#rules/partner-roles";
import { partnerScope, type Identify, type Scope } from "#api/services/access";
import { addImage, deleteImage, listImages, readMedia, updateImage } from "#api/services/images";

/** Form fields arrive as text: "true", "on" and "1" tick a box. */
const flag = z.preprocess((v) => (typeof v === "string" ? ["true", "on", "1"].includes(v.toLowerCase()) : v), z.boolean().default(false));
const ImageFields = z.object({
  offer: z.string({ required_error: "Falta la oferta." }).uuid("Oferta no válida."),
  cover: flag,
  logo: flag,
  alt: z.string().trim().max(200).default(""),
});

/**
 * The picture from either body the contract allows: multipart (a file field "image") or
 * form-urlencoded / JSON (the file as base64 or a data: URL in "image").
 */
async function readImageUpload(req: Request): Promise<{ fields: Record<string, unknown>; bytes: Uint8Array }> {
  const type = req.get("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    if (!Buffer.isBuffer(req.body)) throw badRequest("Cuerpo multipart vacío.");
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(req.body), { headers: { "content-type": type } }).formData();
    } catch {
      throw badRequest("El formulario multipart está mal formado.");
    }
    const fields: Record<string, unknown> = {};
    let bytes: Uint8Array | null = null;
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") fields[key] = value;
      else if (key === "image") bytes = new Uint8Array(await value.arrayBuffer());
    }
    if (!bytes) throw badRequest("Falta la imagen (campo «image»).");
    return { fields, bytes };
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const raw = body.image;
  if (typeof raw !== "string" || raw.length === 0) throw badRequest("Falta la imagen (campo «image»).");
  const base64 = raw.replace(/^data:[^,]*;base64,/, "").replace(/\s/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw badRequest("La imagen debe ir en base64.");
  return { fields: body, bytes: new Uint8Array(Buffer.from(base64, "base64")) };
}

/** Base64 is 4/3 of the file, and form-urlencoding escapes its «+» and «/» on top. */
const UPLOAD_TEXT_LIMIT = Math.ceil(MAX_IMAGE_BYTES * 1.6);

/**
 * POST /offers/images/ reads its own bodies (multipart, or base64 in form-urlencoded or JSON, a
 * picture up to 5 MB), before the API's 100 KB JSON limit, and only once the caller is known to be
 * a partner or staff: a stranger's 5 MB is refused before a byte of it is read.
 */
export function imageUploadRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  router.post(
    "/offers/images/",
    handle(async (req, res, next) => {
      res.locals.scope = await partnerScope(db, req, identify, "offers.write");
      next();
    }),
    express.raw({ type: "multipart/form-data", limit: MAX_IMAGE_BYTES + 512 * 1024 }),
    express.urlencoded({ extended: false, limit: UPLOAD_TEXT_LIMIT }),
    express.json({ limit: UPLOAD_TEXT_LIMIT }),
    handle(async (req, res) => {
      const s = res.locals.scope as Scope;
      const { fields, bytes } = await readImageUpload(req);
      if (findUnstorableText(fields) !== null) throw badRequest(UNSTORABLE_TEXT_MESSAGE);
      const input = parseInput(ImageFields, fields);
      res.status(201).json(await addImage(db, s, { ...input, offer: input.offer.toLowerCase(), bytes }));
    }),
    (error: unknown, _req: Request, _res: ExpressResponse, next: NextFunction) => {
      const type = (error as { type?: string } | null)?.type;
      next(type === "entity.too.large" ? new HttpError(413, IMAGE_TOO_LARGE) : error);
    },
  );
  return router;
}

/** An offer's pictures for its partner or staff, and every uploaded picture by its id. */
export function partnerImagesRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action: PartnerAction) => partnerScope(db, req, identify, action);

  // ---- Uploaded pictures, by id; the id changes with the content, so they never need revalidating.
  router.get(
    "/media/:file",
    handle(async (req, res) => {
      const m = /^([0-9a-f-]{36})\.webp$/i.exec(req.params.file);
      if (!m || !isUuid(m[1])) throw notFound();
      const media = await readMedia(db, m[1].toLowerCase());
      if (!media) throw notFound("Imagen no encontrada.");
      res.set("Cache-Control", "public, max-age=31536000, immutable");
      res.type(media.contentType).send(media.bytes);
    }),
  );

  // ---- Images
  router.get(
    "/offers/images/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.read");
      const { offer } = parseInput(
        z.object({ offer: z.string({ required_error: "Indica la oferta (?offer=…)." }).uuid("Oferta no válida.") }),
        req.query,
      );
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await listImages(db, s, offer.toLowerCase()) });
    }),
  );
  router.patch(
    "/offers/images/:id/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.write");
      const change = parseInput(z.object({ cover: z.boolean().optional(), alt: z.string().trim().max(200).optional() }), req.body);
      res.json(await updateImage(db, s, idParam(req), change));
    }),
  );
  router.delete(
    "/offers/images/:id/",
    handle(async (req, res) => {
      await deleteImage(db, await scope(req, "offers.write"), idParam(req));
      res.status(204).end();
    }),
  );

  return router;
}
