import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useActionData, useNavigation } from "@remix-run/react";
import type { z } from "zod";

/** Shared pieces of the account forms (/login, /login/registro, /login/recuperar, /cuenta). */

/**
 * One step's conform form. A page holds several forms told apart by their `intent`, and each takes
 * back only the answer to its own submission.
 */
export function useStepForm<S extends z.ZodTypeAny>(id: string, schema: S, intent: string) {
  const lastResult = useActionData<{ initialValue?: { intent?: unknown } | null }>();
  return useForm<z.input<S>>({
    id,
    lastResult: repliesTo(lastResult, intent) ? (lastResult as never) : undefined,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

function repliesTo(result: { initialValue?: { intent?: unknown } | null } | undefined, intent: string): boolean {
  return Boolean(result && "initialValue" in result && result.initialValue?.intent === intent);
}

/**
 * Whether the server just answered this form (with problems to show): a folded <details> around
 * it opens, and stays open while the person corrects it.
 */
export function useAnswered(intent: string): boolean {
  return repliesTo(useActionData<{ initialValue?: { intent?: unknown } | null }>(), intent);
}

/** The submit button, disabled while this page's own form is on its way. */
export function SubmitButton({ label, action, className = "btn btn-block" }: { label: string; action: string; className?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith(action);
  return (
    <button type="submit" className={className} disabled={busy}>
      {label}
    </button>
  );
}
