import { z } from "zod";
import { defineRoute, NoContent, notJson } from "#contract/define-route";
import { PartnerImageListSchema, PartnerImageSchema } from "#contract/partner-responses";

/** Form fields arrive as text: "true", "on" and "1" tick a box. */
const flag = z.preprocess((v) => (typeof v === "string" ? ["true", "on", "1"].includes(v.toLowerCase()) : v), z.boolean().default(false));

/**
 * POST /offers/images/: the fields beside the picture. The API reads the body itself (multipart
 * with a file field "image", or base64 in form-urlencoded or JSON), so the route declares no body.
 */
export const ImageFieldsSchema = z.object({
  offer: z.string({ required_error: "Falta la oferta." }).uuid("Oferta no válida."),
  cover: flag,
  logo: flag,
  alt: z.string().trim().max(200).default(""),
});

/** GET /offers/images/?offer=…: one offer's pictures. */
export const ImagesQuerySchema = z.object({
  offer: z.string({ required_error: "Indica la oferta (?offer=…)." }).uuid("Oferta no válida."),
});

/** PATCH /offers/images/{id}/: the cover and the alternative text. */
export const ImageChangeSchema = z.object({ cover: z.boolean().optional(), alt: z.string().trim().max(200).optional() });

/** An offer's pictures for its partner or staff, and every uploaded picture by its id. */
export const partnerImagesRoutes = {
  /** An uploaded picture by its id (`{uuid}.webp`), cacheable for ever: its id changes with its content. */
  media: defineRoute({ method: "GET", path: "/media/:file", answer: notJson("image") }),
  upload: defineRoute({ method: "POST", path: "/offers/images/", answer: PartnerImageSchema }),
  list: defineRoute({ method: "GET", path: "/offers/images/", query: ImagesQuerySchema, answer: PartnerImageListSchema }),
  update: defineRoute({ method: "PATCH", path: "/offers/images/:id/", body: ImageChangeSchema, answer: PartnerImageSchema }),
  delete: defineRoute({ method: "DELETE", path: "/offers/images/:id/", answer: NoContent }),
};
