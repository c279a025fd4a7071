import { ACCOUNT_MAILS_PER_EMAIL_PER_HOUR } from "#rules/accounts";
import { limits } from "#api/rate-limit";
import { TOO_MANY_CODES, type CodePurpose } from "#api/services/login-codes";

/** At most ACCOUNT_MAILS_PER_EMAIL_PER_HOUR codes of one kind to one inbox, account or not. */
export async function limitMailsTo(kind: CodePurpose, email: string) {
  await limits.consume(`account-mail:${kind}:email:${email}`, {
    points: ACCOUNT_MAILS_PER_EMAIL_PER_HOUR,
    durationSec: 3600,
    message: TOO_MANY_CODES,
  });
}
