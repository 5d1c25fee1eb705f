import { deflateSync } from "node:zlib";
import type { Token, Tokens } from "marked";
import { PDFDocument, PDFName } from "pdf-lib";
import type { ExportDocument } from "../document";
import { lexMarkdown } from "../markdown-tokens";
import { layoutBlocks } from "./blocks";
import { Flow, type LinkArea, type PageCanvas } from "./canvas";
import { decoratePage } from "./chrome";
import type { Ctx } from "./draw";
import { GlyphEncoder } from "./encoder.server";
import { EmbeddedFace } from "./font-embed.server";
import { FACES, type FaceName, faceMetrics, trueType } from "./fonts.server";
import { headingText } from "./inline";
import { Measurer } from "./measure";
import { prepareMedia } from "./media.server";
import { addLinks, addOutline, type Target } from "./outline.server";
import { PAGE, themeFor } from "./theme";
import { titlePage } from "./title-page";
import { layoutToc, type TocEntry } from "./toc";

/**
 * The PDF export: title page, table of contents, the PRD, every page with a
 * running header and "Page n of m". Layout is done by this folder's own
 * engine (pages of content-stream operators), fonts are embedded as subsets
 * by font-embed.server.ts; pdf-lib holds the objects and writes the file.
 */

function tocEntries(tokens: Token[]): TocEntry[] {
  return tokens
    .filter((t): t is Tokens.Heading => t.type === "heading" && (t as Tokens.Heading).depth <= 3)
    .map((t) => ({ level: t.depth, text: headingText(t.tokens) || "Untitled section" }));
}

function contentStream(pdf: PDFDocument, page: PageCanvas) {
  return pdf.context.register(pdf.context.flateStream(page.ops.join("\n")));
}

/** pdf-lib compresses fonts, images and streams with pako; node's zlib does the same several times faster. */
function useNativeDeflate(pdf: PDFDocument) {
  const { context } = pdf;
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(typeof contents === "string" ? Buffer.from(contents, "latin1") : contents, { level: 3 }), { ...dict, Filter: "FlateDecode" });
}

export async function buildPdf(doc: ExportDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  useNativeDeflate(pdf);
  const fonts = {} as Record<FaceName, EmbeddedFace>;
  for (const face of FACES) fonts[face] = new EmbeddedFace(pdf, face, trueType(face));
  const m = new Measurer({ regular: faceMetrics("regular"), bold: faceMetrics("bold"), italic: faceMetrics("italic"), mono: faceMetrics("mono") });
  const enc = new GlyphEncoder(fonts, m);
  const theme = themeFor(doc.branding);
  const tokens = lexMarkdown(doc.markdown ?? "");
  const media = await prepareMedia(pdf, doc, tokens);

  // Contents first with placeholder numbers: only its page count matters here.
  const entries = tocEntries(tokens);
  const tocPageCount = entries.length > 0 ? layoutToc(entries, null, theme, m, enc).pages.length : 0;

  const body = new Flow();
  const ctx: Ctx = { flow: body, m, enc, theme, media, headings: [], anchors: new Map(), slugs: new Map(), nesting: 0 };
  layoutBlocks(tokens, ctx);
  if (!doc.markdown?.trim()) layoutBlocks(lexMarkdown("*This document has no content yet.*"), ctx);

  const firstBodyPage = 1 + tocPageCount;
  const toc =
    entries.length > 0
      ? layoutToc(
          ctx.headings,
          ctx.headings.map((h) => firstBodyPage + h.page + 1),
          theme,
          m,
          enc,
        ).pages
      : [];
  const pages = [titlePage(doc, theme, media.logo, m, enc), ...toc, ...body.pages];
  pages.forEach((page, i) => decoratePage(page, { number: i + 1, total: pages.length, title: doc.title, header: i > 0 }, theme, m, enc));

  const resources = pdf.context.obj({
    ProcSet: ["PDF", "Text", "ImageB", "ImageC", "ImageI"],
    Font: Object.fromEntries(enc.resources()),
    XObject: Object.fromEntries(media.xobjects.map((x) => [x.name, x.ref])),
  });
  const resourcesRef = pdf.context.register(resources);
  const pdfPages = pages.map((page) => {
    const pdfPage = pdf.addPage([PAGE.width, PAGE.height]);
    pdfPage.node.set(PDFName.of("Resources"), resourcesRef);
    pdfPage.node.set(PDFName.of("Contents"), contentStream(pdf, page));
    return pdfPage;
  });
  const targets: Target[] = ctx.headings.map((h) => ({ page: pdfPages[firstBodyPage + h.page]!.ref, y: h.y }));
  const resolve = (link: LinkArea): Target | undefined => {
    if (link.heading !== undefined) return targets[link.heading];
    const anchor = link.anchor === undefined ? undefined : ctx.anchors.get(link.anchor);
    return anchor ? { page: pdfPages[firstBodyPage + anchor.page]!.ref, y: anchor.y } : undefined;
  };
  pages.forEach((page, i) => {
    if (page.links.length > 0) addLinks(pdf, pdfPages[i]!, page.links, resolve);
  });
  addOutline(
    pdf,
    ctx.headings.map((h, i) => ({ level: h.level, title: h.text, target: targets[i]! })),
  );

  for (const face of FACES) if (fonts[face].isUsed) fonts[face].write();

  const now = doc.generatedAt;
  pdf.setTitle(doc.title || "PRD", { showInWindowTitleBar: true });
  if (doc.subtitle) pdf.setSubject(doc.subtitle);
  if (theme.companyName) pdf.setAuthor(theme.companyName);
  pdf.setProducer("PRD Studio (pdf-lib)");
  pdf.setCreator("PRD Studio");
  pdf.setCreationDate(now);
  pdf.setModificationDate(now);
  pdf.setLanguage("en");
  return pdf.save({ useObjectStreams: true });
}
