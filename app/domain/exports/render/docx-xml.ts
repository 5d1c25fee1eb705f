/**
 * The fixed parts of a WordprocessingML package (ECMA-376) written as
 * strings: styles (branded), numbering, settings, header and footer,
 * content types, relationships and document properties. The body is
 * written by docx-body.ts; docx.server.ts zips everything.
 */

export const NS_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
export const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Characters XML 1.0 cannot hold (controls, lone surrogates, U+FFFE/FFFF) removed. */
export const xmlSafe = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML cannot hold is the point.
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "");
export const escText = (s: string) => xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
export const escAttr = (s: string) => escText(s).replace(/"/g, "&quot;");

export const hex6 = (color: string, fallback = "4F46E5") => {
  const h = color.replace(/^#/, "");
  const full = /^[0-9a-f]{3}$/i.test(h) ? h.replace(/./g, (c) => c + c) : h;
  return /^[0-9a-f]{6}$/i.test(full) ? full.toUpperCase() : fallback;
};

export const FONT = "Calibri";
export const MONO = "Consolas";
export const MUTED = "6B7280";

const rFonts = (font: string) => `<w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:eastAsia="${font}" w:cs="${font}"/>`;

function paragraphStyle(id: string, name: string, pPr: string, rPr: string, extra = "") {
  return `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>${extra}<w:qFormat/><w:pPr>${pPr}</w:pPr><w:rPr>${rPr}</w:rPr></w:style>`;
}

export function stylesXml(brand: string, accent: string): string {
  const headings = [
    [36, brand, 360, 160],
    [30, brand, 300, 120],
    [26, "111827", 240, 100],
    [24, "111827", 200, 80],
    [22, "374151", 160, 60],
    [22, "374151", 160, 60],
  ] as const;
  const headingStyles = headings
    .map(([size, color, before, after], i) =>
      paragraphStyle(
        `Heading${i + 1}`,
        `heading ${i + 1}`,
        `<w:keepNext/><w:keepLines/><w:spacing w:before="${before}" w:after="${after}"/><w:outlineLvl w:val="${i}"/>`,
        `<w:b/><w:bCs/>${i === 5 ? "<w:i/>" : ""}<w:color w:val="${color}"/><w:sz w:val="${size}"/><w:szCs w:val="${size}"/>`,
        '<w:uiPriority w:val="9"/>',
      ),
    )
    .join("");
  return `${HEAD}<w:styles xmlns:w="${NS_W}">
<w:docDefaults><w:rPrDefault><w:rPr>${rFonts(FONT)}<w:color w:val="1F2937"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>
<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:semiHidden/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
${paragraphStyle("Title", "Title", '<w:spacing w:after="200"/>', '<w:b/><w:bCs/><w:color w:val="111827"/><w:sz w:val="56"/><w:szCs w:val="56"/>', '<w:uiPriority w:val="10"/>')}
${paragraphStyle("Subtitle", "Subtitle", '<w:spacing w:after="120"/>', '<w:color w:val="4B5563"/><w:sz w:val="28"/><w:szCs w:val="28"/>', '<w:uiPriority w:val="11"/>')}
${headingStyles}
${paragraphStyle("ListParagraph", "List Paragraph", '<w:spacing w:after="60"/><w:ind w:left="720"/><w:contextualSpacing/>', "", '<w:uiPriority w:val="34"/>')}
${paragraphStyle("Code", "Code", `<w:keepLines/><w:pBdr><w:left w:val="single" w:sz="12" w:space="6" w:color="D1D5DB"/></w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="F3F4F6"/><w:spacing w:before="120" w:after="120" w:line="240" w:lineRule="auto"/><w:ind w:left="120" w:right="120"/>`, `${rFonts(MONO)}<w:color w:val="111827"/><w:sz w:val="18"/><w:szCs w:val="18"/>`)}
${paragraphStyle("Quote", "Quote", `<w:pBdr><w:left w:val="single" w:sz="18" w:space="8" w:color="${accent}"/></w:pBdr><w:ind w:left="480"/>`, '<w:i/><w:iCs/><w:color w:val="374151"/>', '<w:uiPriority w:val="29"/>')}
${paragraphStyle("DiagramFallback", "Diagram fallback", '<w:keepNext/><w:pBdr><w:top w:val="dashed" w:sz="8" w:space="4" w:color="D97706"/></w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="FFFBEB"/><w:spacing w:before="120" w:after="0"/>', '<w:color w:val="92400E"/>')}
${paragraphStyle("Caption", "caption", '<w:jc w:val="center"/>', `<w:i/><w:color w:val="${MUTED}"/><w:sz w:val="18"/><w:szCs w:val="18"/>`)}
<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:rPr><w:color w:val="${brand}"/><w:u w:val="single"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="InlineCode"><w:name w:val="Inline Code"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr>${rFonts(MONO)}<w:sz w:val="20"/><w:szCs w:val="20"/><w:shd w:val="clear" w:color="auto" w:fill="F3F4F6"/></w:rPr></w:style>
</w:styles>`;
}

const BULLETS = ["•", "◦", "▪"];

function abstractNum(id: number, ordered: boolean) {
  let levels = "";
  for (let l = 0; l < 9; l++) {
    // Nested markdown lists are lists of their own: decimal at every level, as browsers show them.
    const fmt = ordered ? "decimal" : "bullet";
    const text = ordered ? `%${l + 1}.` : BULLETS[l % 3]!;
    const font = ordered ? "" : `<w:rPr>${rFonts(FONT)}</w:rPr>`;
    levels += `<w:lvl w:ilvl="${l}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (l + 1)}" w:hanging="360"/></w:pPr>${font}</w:lvl>`;
  }
  return `<w:abstractNum w:abstractNumId="${id}"><w:multiLevelType w:val="hybridMultilevel"/>${levels}</w:abstractNum>`;
}

/** numId 1: every bulleted list; then one numId per ordered list, restarting at its start number on its level. */
export function numberingXml(ordered: { numId: number; level: number; start: number }[]): string {
  const nums = ordered
    .map(
      (o) =>
        `<w:num w:numId="${o.numId}"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="${o.level}"><w:startOverride w:val="${o.start}"/></w:lvlOverride></w:num>`,
    )
    .join("");
  return `${HEAD}<w:numbering xmlns:w="${NS_W}">${abstractNum(0, false)}${abstractNum(1, true)}<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>${nums}</w:numbering>`;
}

export const settingsXml = () =>
  `${HEAD}<w:settings xmlns:w="${NS_W}"><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`;

const small = `<w:rPr><w:color w:val="${MUTED}"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>`;
const field = (instr: string) =>
  `<w:r>${small}<w:fldChar w:fldCharType="begin"/></w:r><w:r>${small}<w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r><w:r>${small}<w:fldChar w:fldCharType="separate"/></w:r><w:r>${small}<w:t>1</w:t></w:r><w:r>${small}<w:fldChar w:fldCharType="end"/></w:r>`;
const textRun = (text: string) => `<w:r>${small}<w:t xml:space="preserve">${escText(text)}</w:t></w:r>`;

export const headerXml = (text: string) =>
  `${HEAD}<w:hdr xmlns:w="${NS_W}" xmlns:r="${NS_R}"><w:p><w:pPr><w:jc w:val="right"/></w:pPr>${text ? textRun(text) : ""}</w:p></w:hdr>`;
export const footerXml = (numbered: boolean) =>
  `${HEAD}<w:ftr xmlns:w="${NS_W}" xmlns:r="${NS_R}"><w:p><w:pPr><w:jc w:val="center"/></w:pPr>${numbered ? `${textRun("Page ")}${field("PAGE")}${textRun(" of ")}${field("NUMPAGES")}` : ""}</w:p></w:ftr>`;

export function contentTypesXml() {
  const o = (part: string, type: string) => `<Override PartName="${part}" ContentType="application/vnd.openxmlformats-officedocument.${type}"/>`;
  return `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/><Default Extension="gif" ContentType="image/gif"/>${o("/word/document.xml", "wordprocessingml.document.main+xml")}${o("/word/styles.xml", "wordprocessingml.styles+xml")}${o("/word/numbering.xml", "wordprocessingml.numbering+xml")}${o("/word/settings.xml", "wordprocessingml.settings+xml")}${o("/word/header1.xml", "wordprocessingml.header+xml")}${o("/word/header2.xml", "wordprocessingml.header+xml")}${o("/word/footer1.xml", "wordprocessingml.footer+xml")}${o("/word/footer2.xml", "wordprocessingml.footer+xml")}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>${o("/docProps/app.xml", "extended-properties+xml")}</Types>`;
}

export const packageRelsXml = () =>
  `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="${REL}/extended-properties" Target="docProps/app.xml"/></Relationships>`;

export interface Relationship {
  id: string;
  type: "image" | "hyperlink";
  target: string;
}

export function documentRelsXml(extra: Relationship[]) {
  const r = (id: string, type: string, target: string, external = false) =>
    `<Relationship Id="${id}" Type="${REL}/${type}" Target="${escAttr(target)}"${external ? ' TargetMode="External"' : ""}/>`;
  return `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${r("rIdStyles", "styles", "styles.xml")}${r("rIdNumbering", "numbering", "numbering.xml")}${r("rIdSettings", "settings", "settings.xml")}${r("rIdHeader1", "header", "header1.xml")}${r("rIdHeader2", "header", "header2.xml")}${r("rIdFooter1", "footer", "footer1.xml")}${r("rIdFooter2", "footer", "footer2.xml")}${extra.map((x) => r(x.id, x.type, x.target, x.type === "hyperlink")).join("")}</Relationships>`;
}

export function corePropsXml(p: { title: string; subject: string | null; creator: string; date: Date }) {
  const when = p.date.toISOString().replace(/\.\d{3}Z$/, "Z");
  return `${HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escText(p.title)}</dc:title>${p.subject ? `<dc:subject>${escText(p.subject)}</dc:subject>` : ""}<dc:creator>${escText(p.creator)}</dc:creator><cp:lastModifiedBy>PRD Studio</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified></cp:coreProperties>`;
}

export const appPropsXml = () =>
  `${HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>PRD Studio</Application></Properties>`;

const EMU_PER_PX = 9525;
/** Usable width of an A4 page with 1" margins, in px at 96 dpi. */
const MAX_IMAGE_WIDTH = 600;
const MAX_IMAGE_HEIGHT = 820;

/** Fits px dimensions inside the page (or `max`). */
export function fit(width: number, height: number, max = { width: MAX_IMAGE_WIDTH, height: MAX_IMAGE_HEIGHT }) {
  const scale = Math.min(1, max.width / Math.max(1, width), max.height / Math.max(1, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A Word bookmark name for a heading slug: letters, digits and underscores, at most 40 characters. */
export const bookmarkName = (slug: string) => `h_${slug.replace(/[^A-Za-z0-9]/g, "_")}`.slice(0, 40);

/** An inline picture (DrawingML) of `widthPx` x `heightPx` at 96 dpi, its bytes behind relationship `rId`. */
export function drawingXml(p: { rId: string; id: number; widthPx: number; heightPx: number; name: string; descr: string; ext: string }) {
  const cx = p.widthPx * EMU_PER_PX;
  const cy = p.heightPx * EMU_PER_PX;
  return (
    `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${p.id}" name="${escAttr(p.name)}" descr="${escAttr(p.descr)}"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic><pic:nvPicPr><pic:cNvPr id="${p.id}" name="image${p.id}.${p.ext}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${p.rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  );
}
