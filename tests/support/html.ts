import { createRequire } from "node:module";

/** jsdom (a dev dependency without type declarations here), for its HTML parser. */
const { JSDOM } = createRequire(import.meta.url)("jsdom") as { JSDOM: new (html: string) => { window: { document: Document } } };

/** The parsed document of an HTML page, to query as a browser would see it. */
export const parseHtml = (html: string) => new JSDOM(html).window.document;
