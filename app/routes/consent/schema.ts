import { z } from "zod";

const checkbox = z
  .literal("on")
  .optional()
  .transform((v) => v === "on");

/** The consent form: the banner's two equal buttons and the «Configurar» switches post here. */
export const ConsentFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept-all") }),
  z.object({ intent: z.literal("reject-all") }),
  z.object({ intent: z.literal("save"), analytics: checkbox, marketing: checkbox }),
]);

export type ConsentForm = z.infer<typeof ConsentFormSchema>;

export function grantedBy(form: ConsentForm): { analytics: boolean; marketing: boolean } {
  if (form.intent === "accept-all") return { analytics: true, marketing: true };
  if (form.intent === "reject-all") return { analytics: false, marketing: false };
  return { analytics: form.analytics, marketing: form.marketing };
}
