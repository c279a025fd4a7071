import { isNeverRecorded } from "#rules/tracking";

/**
 * The layout marks the content of a page session replay never records (login, account, payment,
 * mail links). The consented tools read the mark to know which page is on screen: React draws a
 * new page a moment after the router has moved to it.
 */
export const NEVER_RECORDED_SELECTOR = "[data-never-recorded]";

export const neverRecordedMark = (pathname: string): { "data-never-recorded"?: "" } =>
  isNeverRecorded(pathname) ? { "data-never-recorded": "" } : {};
