import { desc } from "drizzle-orm";
import type { BecomePartnerInput } from "#lib/schemas/partner";
import type { Executor } from "#api/db/client";
import { partnerLeads } from "#api/db/schema";

export type PartnerLead = typeof partnerLeads.$inferSelect;
export type LeadHook = (tx: Executor, lead: PartnerLead) => Promise<void>;

/** Stores the lead; the mails to the business team and the applicant go in the same transaction. */
export async function createLead(db: Executor, input: BecomePartnerInput, onCreated?: LeadHook): Promise<PartnerLead> {
  return db.transaction(async (tx) => {
    const [lead] = await tx
      .insert(partnerLeads)
      .values({
        businessName: input.business_name,
        contactName: input.contact_name,
        email: input.email,
        phone: input.phone,
        province: input.province,
        category: input.category,
        message: input.message,
      })
      .returning();
    if (onCreated) await onCreated(tx, lead);
    return lead;
  });
}

export async function listLeads(db: Executor, limit = 200) {
  const rows = await db.select().from(partnerLeads).orderBy(desc(partnerLeads.createdAt)).limit(limit);
  return rows.map((l) => ({
    uuid: l.id,
    business_name: l.businessName,
    contact_name: l.contactName,
    email: l.email,
    phone: l.phone,
    province: l.province,
    category: l.category,
    message: l.message,
    status: l.status,
    created_at: l.createdAt.toISOString(),
  }));
}
