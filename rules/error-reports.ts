/** What an error report or a log record may say, on the server and in the browser alike (docs/monitoring.md). */

const EMAIL = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[a-z]{2,}/gi;

/** The text with every e-mail address replaced by [email]. */
export function withoutAddressText(text: string): string {
  return text.replace(EMAIL, "[email]");
}

type Report = { message?: string; exception?: { values?: { value?: string }[] } };

/** The report with every e-mail address in its message and exception texts replaced by [email]. */
export function withoutAddresses<T extends Report>(report: T): T {
  report.message = report.message === undefined ? undefined : withoutAddressText(report.message);
  for (const exception of report.exception?.values ?? [])
    exception.value = exception.value === undefined ? undefined : withoutAddressText(exception.value);
  return report;
}
