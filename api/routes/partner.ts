import express, { Router, type NextFunction, type Request, type Response as ExpressResponse } from "express";
import { z } from "zod";
import { CATEGORY_IDS, CATEGORY_LABELS, OFFER_TYPE_LABELS, OFFER_TYPES } from "#rules/categories";
import { COUPON_STATE_LABELS, COUPON_STATES } from "#rules/coupons";
import { OFFER_STATUS_LABELS, OFFER_STATUSES } from "#rules/offer-status";
import { PAYMENT_FLOW_LABELS, PAYMENT_FLOWS } from "#rules/payments";
import { DISCOUNT_TYPE_LABELS, DISCOUNT_TYPES } from "#rules/prices";
import { REGIONS } from "#rules/regions";
import {
  OfferPatchSchema,
  OfferSchema,
  OrganizationSchema,
  PromoCodePatchSchema,
  PromoCodeSchema,
  RevisionDecisionSchema,
  UsersQuerySchema,
} from "#contract/partner";
import { blank, pageFields, PageQuerySchema } from "#contract/page";
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "#rules/text";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { badRequest, handle, HttpError, notFound, pageAnswer, parseInput } from "#api/http";
import { actorOf, partnerScope, requireStaffActor, type Identify, type Scope } from "#api/services/access";
import { clientAddress, isExemptAddress, limits } from "#api/rate-limit";
import { PROMO_CODE_CHECKS, TOO_MANY_PROMO_CHECKS } from "#rules/limits";
import { addImage, deleteImage, listImages, readMedia, updateImage } from "#api/services/images";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "#rules/images";
import {
  addMember,
  createOrganization,
  deleteOrganization,
  findOrganization,
  listMembers,
  listOrganizations,
  removeMember,
  toOrganization,
  updateOrganization,
} from "#api/services/organizations";
import { decideRevision, listRevisions, withdrawRevision } from "#api/services/offer-revisions";
import {
  createPartnerOffer,
  deletePartnerOffer,
  getPartnerOffer,
  listPartnerOffers,
  updatePartnerOffer,
} from "#api/services/partner-offers";
import { eraseUser, searchUsers } from "#api/services/user-admin";
import { createPromoCode, deletePromoCode, getPromoCode, listPromoCodes, updatePromoCode } from "#api/services/promo-codes";

/** A path id that is not a uuid can match nothing: 404, like any other unknown object. */
export function idParam(req: Request, name = "id"): string {
  const id = req.params[name];
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

const OffersQuery = z.object({
  status: z.preprocess(blank, z.enum(OFFER_STATUSES, { errorMap: () => ({ message: "Estado de oferta desconocido." }) }).optional()),
  category: z.preprocess(blank, z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Categoría desconocida." }) }).optional()),
  region: z.preprocess(blank, z.string().max(60).optional()),
  search: z.preprocess(blank, z.string().max(200).optional()),
  organization: z.preprocess(blank, z.string().uuid("Empresa no válida.").optional()),
  ...pageFields,
});
const OrganizationsQuery = z.object({ search: z.preprocess(blank, z.string().max(120).optional()), ...pageFields });

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
      res.locals.scope = await partnerScope(db, req, identify);
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

export function partnerRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request) => partnerScope(db, req, identify);

  // ---- Dictionaries: the lists in rules/, with their Spanish labels. Public, cacheable.
  router.get("/offers/dictionaries/", (_req, res) => {
    const entries = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
      values.map((value) => ({ value, label: labels[value] }));
    res.set("Cache-Control", "public, max-age=3600");
    res.json({
      categories: entries(CATEGORY_IDS, CATEGORY_LABELS),
      provinces: REGIONS.map((r) => ({ value: r.value, label: r.label })),
      offer_types: entries(OFFER_TYPES, OFFER_TYPE_LABELS),
      discount_types: entries(DISCOUNT_TYPES, DISCOUNT_TYPE_LABELS),
      payment_flows: entries(PAYMENT_FLOWS, PAYMENT_FLOW_LABELS),
      offer_statuses: entries(OFFER_STATUSES, OFFER_STATUS_LABELS),
      coupon_states: entries(COUPON_STATES, COUPON_STATE_LABELS),
    });
  });

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
      const s = await scope(req);
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
      const s = await scope(req);
      const change = parseInput(z.object({ cover: z.boolean().optional(), alt: z.string().trim().max(200).optional() }), req.body);
      res.json(await updateImage(db, s, idParam(req), change));
    }),
  );
  router.delete(
    "/offers/images/:id/",
    handle(async (req, res) => {
      await deleteImage(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );

  // ---- Changes to offers on sale, waiting for staff (before /offers/:id/, which would take «revisions» for an id)
  router.get(
    "/offers/revisions/",
    handle(async (req, res) => {
      const s = await scope(req);
      const q = parseInput(PageQuerySchema, req.query);
      const { count, results } = await listRevisions(db, s, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.patch(
    "/offers/revisions/:id/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const s = await scope(req);
      const id = idParam(req);
      res.json(await decideRevision(db, s, id, parseInput(RevisionDecisionSchema, req.body)));
    }),
  );
  router.delete(
    "/offers/revisions/:id/",
    handle(async (req, res) => {
      await withdrawRevision(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );

  // ---- Offers
  router.get(
    "/offers/",
    handle(async (req, res) => {
      const s = await scope(req);
      const q = parseInput(OffersQuery, req.query);
      const { count, results } = await listPartnerOffers(db, s, q, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.post(
    "/offers/",
    handle(async (req, res) => {
      const s = await scope(req);
      const input = parseInput(OfferSchema, req.body);
      res.status(201).json(await createPartnerOffer(db, s, { ...input, organization: input.organization.toLowerCase() }));
    }),
  );
  router.get(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req);
      res.set("Cache-Control", "private, no-store");
      res.json(await getPartnerOffer(db, s, idParam(req)));
    }),
  );
  router.put(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req);
      const id = idParam(req);
      await getPartnerOffer(db, s, id); // 404 before 400: a stranger's offer is not worth validating for
      const input = parseInput(OfferSchema, req.body);
      res.json(await updatePartnerOffer(db, s, id, { ...input, organization: input.organization.toLowerCase() }));
    }),
  );
  router.patch(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req);
      const id = idParam(req);
      await getPartnerOffer(db, s, id);
      res.json(await updatePartnerOffer(db, s, id, parseInput(OfferPatchSchema, req.body)));
    }),
  );
  router.delete(
    "/offers/:id/",
    handle(async (req, res) => {
      await deletePartnerOffer(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );

  // ---- Organisations
  router.get(
    "/organizations/",
    handle(async (req, res) => {
      const s = await scope(req);
      const q = parseInput(OrganizationsQuery, req.query);
      const { count, results } = await listOrganizations(db, s, q.search, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.post(
    "/organizations/",
    handle(async (req, res) => {
      const s = await scope(req);
      res.status(201).json(await createOrganization(db, s, parseInput(OrganizationSchema, req.body)));
    }),
  );
  router.get(
    "/organizations/:id/",
    handle(async (req, res) => {
      const s = await scope(req);
      const org = await findOrganization(db, s, idParam(req));
      res.set("Cache-Control", "private, no-store");
      res.json({ ...toOrganization(org), members: s.staff ? await listMembers(db, org.id) : undefined });
    }),
  );
  const orgWrite = (schema: z.ZodTypeAny) =>
    handle(async (req, res) => {
      const s = await scope(req);
      const id = idParam(req);
      await findOrganization(db, s, id);
      res.json(await updateOrganization(db, s, id, parseInput(schema, req.body)));
    });
  router.put("/organizations/:id/", orgWrite(OrganizationSchema));
  router.patch("/organizations/:id/", orgWrite(OrganizationSchema.partial()));
  router.delete(
    "/organizations/:id/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      await deleteOrganization(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );
  // Members are managed by staff (a partner cannot add a stranger to its own business).
  router.post(
    "/organizations/:id/members/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const s = await scope(req);
      const org = await findOrganization(db, s, idParam(req));
      const { email } = parseInput(z.object({ email: z.string().trim().min(3).max(254) }), req.body);
      res.status(201).json({ results: await addMember(db, org.id, email) });
    }),
  );
  router.delete(
    "/organizations/:id/members/:userId/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      await removeMember(db, idParam(req), idParam(req, "userId"));
      res.status(204).end();
    }),
  );

  // ---- Promo codes
  // Each code created or renamed is a guess at the codes that exist, limited like apply-promocode.
  const promoWrites = handle(async (req, _res, next) => {
    const actor = await actorOf(req, identify);
    await limits.consume(`promo-write:user:${actor.id}`, { ...PROMO_CODE_CHECKS, message: TOO_MANY_PROMO_CHECKS });
    const address = clientAddress(req);
    if (!isExemptAddress(address))
      await limits.consume(`promo-write:ip:${address}`, { ...PROMO_CODE_CHECKS, message: TOO_MANY_PROMO_CHECKS });
    next();
  });
  router.get(
    "/promocodes/",
    handle(async (req, res) => {
      const s = await scope(req);
      const q = parseInput(
        z.object({ offer: z.preprocess(blank, z.string().uuid().optional()), search: z.preprocess(blank, z.string().max(40).optional()) }),
        req.query,
      );
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await listPromoCodes(db, s, q) });
    }),
  );
  router.post(
    "/promocodes/",
    promoWrites,
    handle(async (req, res) => {
      const s = await scope(req);
      res.status(201).json(await createPromoCode(db, s, parseInput(PromoCodeSchema, req.body)));
    }),
  );
  router.get(
    "/promocodes/:id/",
    handle(async (req, res) => {
      res.set("Cache-Control", "private, no-store");
      res.json(await getPromoCode(db, await scope(req), idParam(req)));
    }),
  );
  const promoWrite = (partial: boolean) =>
    handle(async (req, res) => {
      const s = await scope(req);
      const id = idParam(req);
      await getPromoCode(db, s, id);
      const input = partial ? parseInput(PromoCodePatchSchema, req.body) : parseInput(PromoCodeSchema, req.body);
      res.json(await updatePromoCode(db, s, id, input));
    });
  router.put("/promocodes/:id/", promoWrites, promoWrite(false));
  router.patch("/promocodes/:id/", promoWrites, promoWrite(true));
  router.delete(
    "/promocodes/:id/",
    handle(async (req, res) => {
      await deletePromoCode(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );

  return router;
}

/** Staff's user management: search and erase. */
export function staffUsersRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  router.get(
    "/users/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const q = parseInput(UsersQuerySchema, Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, blank(v)])));
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await searchUsers(db, q) });
    }),
  );
  router.delete(
    "/users/:id/",
    handle(async (req, res) => {
      const actor = await requireStaffActor(req, identify);
      await eraseUser(db, idParam(req), actor);
      res.status(204).end();
    }),
  );
  return router;
}
