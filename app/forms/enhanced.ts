/** Sent with a post made by a fetcher (JavaScript running): the action answers with data, not a redirect. */
export const ENHANCED_FIELD = "_enhanced";
