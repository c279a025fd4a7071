import express, { Router, type Request, type RequestHandler } from "express";
import { ImageFieldsSchema, partnerImagesRoutes } from "#contract/partner-images";
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "#rules/text";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "#rules/images";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { badRequest, HttpError, idParam, notFound, parseInput } from "#api/http";
import { on } from "#api/route";
import { partnerScope, scopeFirst, scopeOf, type Identify } from "#api/services/access";
import { addImage, deleteImage, listImages, readMedia, updateImage } from "#api/services/images";

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

/** A body too large for its parser is the upload's own 413, with the limit in its message. */
const tooLargeAs413 =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      const type = (error as { type?: string } | null | undefined)?.type;
      next(type === "entity.too.large" ? new HttpError(413, IMAGE_TOO_LARGE) : error);
    });

/**
 * POST /offers/images/ reads its own bodies (multipart, or base64 in form-urlencoded or JSON, a
 * picture up to 5 MB), before the API's 100 KB JSON limit, and only once the caller is known to be
 * a partner or staff: a stranger's 5 MB is refused before a byte of it is read.
 */
export function imageUploadRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  on(
    router,
    partnerImagesRoutes.upload,
    {
      before: [
        scopeFirst(db, identify, "offers.write"),
        tooLargeAs413(express.raw({ type: "multipart/form-data", limit: MAX_IMAGE_BYTES + 512 * 1024 })),
        tooLargeAs413(express.urlencoded({ extended: false, limit: UPLOAD_TEXT_LIMIT })),
        tooLargeAs413(express.json({ limit: UPLOAD_TEXT_LIMIT })),
      ],
    },
    async (req, res) => {
      const s = scopeOf(res);
      const { fields, bytes } = await readImageUpload(req);
      if (findUnstorableText(fields) !== null) throw badRequest(UNSTORABLE_TEXT_MESSAGE);
      const input = parseInput(ImageFieldsSchema, fields);
      res.status(201).json(await addImage(db, s, { ...input, offer: input.offer.toLowerCase(), bytes }));
    },
  );
  return router;
}

/** An offer's pictures for its partner or staff, and every uploaded picture by its id. */
export function partnerImagesRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();

  // ---- Uploaded pictures, by id; the id changes with the content, so they never need revalidating.
  on(router, partnerImagesRoutes.media, async (_req, res, { params }) => {
    const m = /^([0-9a-f-]{36})\.webp$/i.exec(params.file);
    if (!m || !isUuid(m[1])) throw notFound();
    const media = await readMedia(db, m[1].toLowerCase());
    if (!media) throw notFound("Imagen no encontrada.");
    res.set("Cache-Control", "public, max-age=31536000, immutable");
    res.type(media.contentType).send(media.bytes);
  });

  // ---- Images
  on(router, partnerImagesRoutes.list, { before: [scopeFirst(db, identify, "offers.read")] }, async (_req, res, { query }) => {
    res.set("Cache-Control", "private, no-store");
    res.json({ results: await listImages(db, scopeOf(res), query.offer.toLowerCase()) });
  });
  on(router, partnerImagesRoutes.update, { before: [scopeFirst(db, identify, "offers.write")] }, async (req, res, { body }) => {
    res.json(await updateImage(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerImagesRoutes.delete, async (req, res) => {
    await deleteImage(db, await partnerScope(db, req, identify, "offers.write"), idParam(req));
    res.status(204).end();
  });

  return router;
}
