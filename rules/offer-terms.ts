/**
 * The lines of an offer's conditions that speak of cancelling, changing or getting money back:
 * what the offer itself says, shown beside the buy button. Nothing is written for an offer whose
 * conditions say nothing of it (the user agreement's general terms apply).
 */
const REFUND_WORDS = /cancel|anula|reembols|devoluc|devolv|desisti|cambio de fecha|reprogram/i;

export function refundTerms(conditions: string): string[] {
  return conditions
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && REFUND_WORDS.test(line));
}
