import { strToU8, type Zippable, zipSync } from "fflate";
import type { ExportDocument } from "../document";
import { DocxBody } from "./docx-body";
import {
  appPropsXml,
  contentTypesXml,
  corePropsXml,
  documentRelsXml,
  footerXml,
  headerXml,
  hex6,
  MUTED,
  NS_R,
  NS_W,
  numberingXml,
  packageRelsXml,
  settingsXml,
  stylesXml,
} from "./docx-xml";

/**
 * The Word export: a WordprocessingML package written directly
 * from the marked tokens (docx-body.ts) and zipped with fflate. No HTML
 * round trip and no document object model: a 30,000-word PRD takes a
 * fraction of a second and a few tens of MB (html-to-docx and the `docx`
 * package both need over 100 MB for it; docs/export-rendering.md).
 *
 * A branded title page (logo, company name in the primary colour, title,
 * subtitle, date), then the PRD with real Word styles (Title, Heading1–6,
 * List Paragraph with Word numbering, Code, Quote, Hyperlink) and, on every
 * page after the first, a header (company · title) and a footer
 * ("Page X of Y").
 */

const dateLabel = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

function titlePage(body: DocxBody, doc: ExportDocument, brand: string): string {
  const { branding } = doc;
  let out = "";
  if (branding.logo) {
    const alt = `${branding.companyName ?? ""} logo`.trim();
    out += `<w:p><w:pPr><w:spacing w:after="240"/></w:pPr>${body.imageRun(branding.logo, alt, { width: 200, height: 80 })}</w:p>`;
  }
  const company = branding.companyName ? body.run(branding.companyName, { bold: true, color: brand, size: 32 }, false) : "";
  out += `<w:p><w:pPr><w:spacing w:after="1800"/></w:pPr>${company}</w:p>`;
  out += `<w:p><w:pPr><w:pStyle w:val="Title"/><w:pBdr><w:bottom w:val="single" w:sz="18" w:space="8" w:color="${brand}"/></w:pBdr></w:pPr>${body.run(doc.title, {}, false)}</w:p>`;
  if (doc.subtitle) out += body.paragraph(body.run(doc.subtitle, {}, false), {}, undefined, "Subtitle");
  out += `<w:p><w:pPr><w:spacing w:before="240"/></w:pPr>${body.run(`Generated ${dateLabel(doc.generatedAt)}`, { color: MUTED }, false)}</w:p>`;
  out += '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
  return out;
}

export async function renderDocx(doc: ExportDocument): Promise<Uint8Array> {
  const brand = hex6(doc.branding.primaryColor);
  const accent = hex6(doc.branding.accentColor, "0EA5E9");
  const body = new DocxBody(doc, brand);
  const cover = titlePage(body, doc, brand);
  const content = body.markdown();
  const company = doc.branding.companyName ?? "";
  const sectPr =
    '<w:sectPr><w:headerReference w:type="default" r:id="rIdHeader1"/><w:headerReference w:type="first" r:id="rIdHeader2"/>' +
    '<w:footerReference w:type="default" r:id="rIdFooter1"/><w:footerReference w:type="first" r:id="rIdFooter2"/>' +
    '<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:titlePg/></w:sectPr>';
  const documentXml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<w:document xmlns:w="${NS_W}" xmlns:r="${NS_R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    `<w:body>${cover}${content}<w:p/>${sectPr}</w:body></w:document>`;

  const files: Zippable = {
    "[Content_Types].xml": strToU8(contentTypesXml()),
    "_rels/.rels": strToU8(packageRelsXml()),
    "docProps/core.xml": strToU8(corePropsXml({ title: doc.title, subject: doc.subtitle, creator: company || "PRD Studio", date: doc.generatedAt })),
    "docProps/app.xml": strToU8(appPropsXml()),
    "word/document.xml": strToU8(documentXml),
    "word/_rels/document.xml.rels": strToU8(documentRelsXml(body.rels)),
    "word/styles.xml": strToU8(stylesXml(brand, accent)),
    "word/numbering.xml": strToU8(numberingXml(body.orderedLists)),
    "word/settings.xml": strToU8(settingsXml()),
    "word/header1.xml": strToU8(headerXml([company, doc.title].filter(Boolean).join(" · "))),
    "word/header2.xml": strToU8(headerXml("")),
    "word/footer1.xml": strToU8(footerXml(true)),
    "word/footer2.xml": strToU8(footerXml(false)),
  };
  // Pictures are compressed already: stored as they are.
  for (const m of body.media) files[m.path] = [m.data, { level: 0 }];
  return zipSync(files, { level: 6 });
}
