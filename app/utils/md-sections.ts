/**
 * A Markdown document cut at its level-2 headings ("## "), ignoring fenced
 * code. Each part keeps its heading line; the text before the first heading
 * is part 0 with an empty title. Joining the parts gives the document back.
 */
export interface MdPart {
  title: string;
  text: string;
}

export function splitSections(markdown: string): MdPart[] {
  const parts: MdPart[] = [{ title: "", text: "" }];
  let fenced = false;
  for (const line of markdown.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^##\s+(.+?)\s*#*\s*$/.exec(line.trimEnd());
    if (heading) parts.push({ title: heading[1]!.replace(/[*_`]/g, ""), text: line });
    else parts[parts.length - 1]!.text += line;
  }
  return parts;
}

/** The document with part `index` replaced (a trailing newline is kept so the next heading stays on its own line). */
export function replaceSection(markdown: string, index: number, text: string) {
  const parts = splitSections(markdown);
  if (!parts[index]) return markdown;
  const next = text.endsWith("\n") || index === parts.length - 1 ? text : `${text}\n\n`;
  parts[index] = { ...parts[index]!, text: next };
  return parts.map((p) => p.text).join("");
}
