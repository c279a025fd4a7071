import { createContext, useContext } from "react";

/**
 * The request's CSP nonce, given by entry.server.tsx while rendering on the server; empty for a
 * page kept for many visitors, whose policy lists its scripts' hashes instead. In the browser it
 * is empty: the scripts are already on the page and browsers hide nonce values.
 */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
