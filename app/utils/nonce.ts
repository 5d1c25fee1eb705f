import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered. entry.server
 * makes one per document request, sends it in the policy's script-src and
 * provides it here, so root.tsx gives it to every inline <script> Remix
 * emits (<Scripts>, <ScrollRestoration>). In the browser it is undefined:
 * the scripts are rendered once, on the server (they suppress the hydration
 * warning, and browsers hide a nonce attribute from the DOM anyway).
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
