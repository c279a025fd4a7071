import { desc, sql } from "drizzle-orm";
import type { BecomePartnerInput } from "#contract/partner";
import type { Executor } from "#api/db/client";
import { partnerLeads } from "#api/db/schema";
import { queueMail } from "#api/mail/outbox";

export type PartnerLead = typeof partnerLeads.$inferSelect;

/** Stores the lead; the mails to the business team and the applicant go in the same transaction. */
export async function createLead(
  db: Executor,
  input: BecomePartnerInput,
  { businessEmail }: { businessEmail: string },
): Promise<PartnerLead> {
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
    const data = {
      business_name: lead.businessName,
      contact_name: lead.contactName,
      email: lead.email,
      phone: lead.phone,
      province: lead.province,
      category: lead.category,
      message: lead.message,
    };
    await queueMail(tx, { kind: "partner-lead", to: businessEmail, dedupeKey: `partner-lead:${lead.id}`, data });
    // The applicant's copy is fixed words: nothing they typed goes with it.
    await queueMail(tx, { kind: "partner-lead-confirmation", to: lead.email, dedupeKey: `partner-lead-confirmation:${lead.id}`, data: {} });
    return lead;
  });
}

/** A page of the leads, newest first, and how many there are. */
export async function listLeads(db: Executor, page: { page: number; pageSize: number }) {
  const [[count], rows] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(partnerLeads),
    db
      .select()
      .from(partnerLeads)
      .orderBy(desc(partnerLeads.createdAt), desc(partnerLeads.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  const results = rows.map((l) => ({
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
  return { count: Number(count?.n ?? 0), results };
}
