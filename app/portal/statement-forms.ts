/**
 * The statement screens' forms, one schema each, read by their action and their component. The
 * commission is typed as people say it («15,5» %, «0,50» €) and sent as the API takes it.
 */
import { z } from "zod";
import "#rules/zod-es";
import { BP, FIXED_CENTS_MAX, percentToBp } from "#rules/commission";
import { toCents } from "#rules/prices";
import { dayField } from "#contract/statements";

export {
  IssueMonthInputSchema as IssueMonthFormSchema,
  IssueStatementInputSchema as IssueRangeFormSchema,
  PayableMomentInputSchema as PayableFormSchema,
  PayoutAccountInputSchema as IbanFormSchema,
  PayoutInputSchema as PayoutFormSchema,
} from "#contract/statements";

const euros = /^\d{1,4}([.,]\d{1,2})?$/;

export const CommissionFormSchema = z
  .object({
    valid_from: dayField,
    percent: z
      .string({ required_error: "Escribe el porcentaje de comisión." })
      .trim()
      .refine((v) => !Number.isNaN(percentToBp(v)), `Escribe un porcentaje entre 0 y ${BP / 100}, con dos decimales como mucho.`),
    fixed: z
      .string()
      .trim()
      .optional()
      .refine(
        (v) => !v || (euros.test(v) && toCents(v.replace(",", ".")) <= FIXED_CENTS_MAX),
        "Escribe un importe fijo entre 0 y 1.000 €.",
      ),
  })
  .transform((v) => ({
    valid_from: v.valid_from,
    percent_bp: percentToBp(v.percent),
    fixed_cents: v.fixed ? toCents(v.fixed.replace(",", ".")) : 0,
  }));
