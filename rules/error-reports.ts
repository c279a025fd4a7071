/** What an error report may say, on the server and in the browser alike (docs/monitoring.md). */

const EMAIL = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[a-z]{2,}/gi;

type Report = { message?: string; exception?: { values?: { value?: string }[] } };

/** The report with every e-mail address in its message and exception texts replaced by [email]. */
export function withoutAddresses<T extends Report>(report: T): T {
  report.message = report.message?.replace(EMAIL, "[email]");
  for (const exception of report.exception?.values ?? []) exception.value = exception.value?.replace(EMAIL, "[email]");
  return report;
}
