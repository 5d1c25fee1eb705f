/**
 * A long, realistic PRD for export tests and benchmarks: sections with
 * prose, nested lists, numbered steps, requirement tables, code blocks,
 * quotes and links, until `words` words of text.
 */
const VOCABULARY = (
  "the product team will deliver a reliable export pipeline that handles large requirement documents for every customer " +
  "while finance managers review approvals and engineers measure latency budgets across regions with clear ownership " +
  "so that onboarding stays simple accessible secure and auditable from the first release to general availability"
).split(" ");

export function largePrd(words = 30_000): { markdown: string; wordCount: number } {
  let count = 0;
  let cursor = 0;
  const phrase = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(VOCABULARY[cursor++ % VOCABULARY.length]!);
    count += n;
    return out.join(" ");
  };
  const parts: string[] = [];
  for (let s = 1; count < words; s++) {
    count += 2;
    parts.push(`## ${s}. Section ${s}`, "", `${phrase(90)}. **Key point:** ${phrase(12)}, see [the guide](https://example.com/guide/${s}).`, "");
    count += 1;
    parts.push(
      `### Details ${s}`,
      "",
      `- ${phrase(10)}`,
      `- ${phrase(10)}`,
      `  - ${phrase(6)}`,
      `- [x] ${phrase(5)}`,
      "",
      `1. ${phrase(8)}`,
      `2. ${phrase(8)}`,
      "",
    );
    count += 4;
    parts.push("| Requirement | Priority | Owner | Notes |", "|---|:-:|---|---|");
    for (let r = 1; r <= 5; r++) {
      count += 3;
      parts.push(`| R${s}.${r} ${phrase(4)} | Must | Team ${r} | ${phrase(10)} |`);
    }
    parts.push(
      "",
      "```ts",
      `export const section${s} = { id: ${s}, owner: "team-${s % 7}" };`,
      "```",
      "",
      `> ${phrase(20)}`,
      "",
      `${phrase(50)} with \`inline code\` and *emphasis*.`,
      "",
    );
  }
  return { markdown: `# Large PRD\n\n${parts.join("\n")}`, wordCount: count };
}
