/**
 * Markdown → Atlassian Document Format (Jira Cloud's rich-text JSON), for
 * issue descriptions: headings, paragraphs, bullet lists, `---` rules and
 * [links](url). Emphasis markers are dropped; anything else stays plain text.
 */

type Mark = { type: "link"; attrs: { href: string } };
type Text = { type: "text"; text: string; marks?: Mark[] };
type Block =
  | { type: "paragraph"; content: Text[] }
  | { type: "heading"; attrs: { level: number }; content: Text[] }
  | { type: "bulletList"; content: { type: "listItem"; content: { type: "paragraph"; content: Text[] }[] }[] }
  | { type: "rule" };
export type AdfDocument = { version: 1; type: "doc"; content: Block[] };

const LINK = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;

export function inline(line: string): Text[] {
  const out: Text[] = [];
  const push = (s: string, marks?: Mark[]) => {
    const text = s.replace(/\*\*|__|`/g, "");
    if (text) out.push(marks ? { type: "text", text, marks } : { type: "text", text });
  };
  let at = 0;
  for (const m of line.matchAll(LINK)) {
    push(line.slice(at, m.index));
    push(m[1]!, [{ type: "link", attrs: { href: m[2]! } }]);
    at = m.index + m[0].length;
  }
  push(line.slice(at));
  return out;
}

export function markdownToAdf(markdown: string): AdfDocument {
  const content: Block[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length) {
      const text = inline(paragraph.join(" "));
      if (text.length) content.push({ type: "paragraph", content: text });
    }
    if (list.length)
      content.push({ type: "bulletList", content: list.map((item) => ({ type: "listItem", content: [{ type: "paragraph", content: inline(item) }] })) });
    paragraph = [];
    list = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const bullet = /^[-*+]\s+(.*)$/.exec(line);
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!line) flush();
    else if (/^(-{3,}|\*{3,})$/.test(line)) {
      flush();
      content.push({ type: "rule" });
    } else if (heading) {
      flush();
      content.push({ type: "heading", attrs: { level: heading[1]!.length }, content: inline(heading[2]!) });
    } else if (bullet) {
      if (paragraph.length) {
        const keep = list;
        list = [];
        flush();
        list = keep;
      }
      list.push(bullet[1]!);
    } else {
      if (list.length) flush();
      paragraph.push(line);
    }
  }
  flush();
  return { version: 1, type: "doc", content };
}
