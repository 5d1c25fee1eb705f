/**
 * A long PRD shaped the way the PRD check finds hardest (issue 33): many
 * short H2 sections, each with a goal list, vague words, TODO markers,
 * placeholders, a user story with and without acceptance criteria, a table
 * with and without rows, fenced and inline code, until `chars` characters.
 */
const OUTLINE = ["Problem", "Goals and Success Metrics", "Target Users", "Requirements", "Scope and Non-Goals", "Risks", "Open Questions"];

function section(n: number): string[] {
  const title = n < OUTLINE.length ? OUTLINE[n]! : `${n}. ${n % 3 === 0 ? "Goals for area" : n % 3 === 1 ? "Requirements of area" : "Notes on area"} ${n}`;
  const lines = [
    `## ${title}`,
    "",
    `The onboarding flow for area ${n} should be fast and easy for many users, with \`code ${n}\` kept simple.`,
    `- Cut the time to first value of area ${n} by ${n % 90}% within 2 quarters.`,
    `- Make the export of area ${n} seamless and robust`,
    `  continued on a nested line for item ${n}.`,
    `- Owner: to be agreed with the district ${n}`,
    `TODO: decide pricing of area ${n} ??? and [insert figure here]`,
    `As a finance admin of area ${n}, I want a monthly export so that the books close on time.`,
  ];
  if (n % 2 === 0) lines.push(`- Given a closed month, when I export, then the CSV of area ${n} lists every report.`);
  lines.push(`Open question: who approves area ${n}?`, "", "| Risk | Mitigation |", "|---|---|");
  if (n % 3 !== 0) lines.push(`| Misread amounts in area ${n} | Mitigation: TBC |`);
  lines.push("", "```ts", `const area${n} = { fast: true, todo: "TODO" };`, "```", "");
  if (n % 5 === 0) lines.push(`## Empty section ${n}`, "", "TBD", "");
  return lines;
}

export function manySectionsPrd(chars = 320_000): string {
  const parts = ["# Many sections", ""];
  let length = 0;
  for (let n = 0; length < chars; n++) {
    const lines = section(n);
    parts.push(...lines);
    length += lines.reduce((sum, l) => sum + l.length + 1, 0);
  }
  return parts.join("\n").slice(0, chars);
}
