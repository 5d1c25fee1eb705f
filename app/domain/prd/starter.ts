/** The first draft of a new PRD: the template's sections, or a sensible default outline. */
export function starterFor(name: string, template: { sections: string[]; initialQuestion: string } | null) {
  if (template?.sections.length) {
    return {
      content: `# ${name}\n\n${template.sections.map((s) => `## ${s}\n\n`).join("")}`,
      question: template.initialQuestion,
    };
  }
  return { content: STARTER, question: template?.initialQuestion ?? "" };
}

const STARTER = `# Product requirements

## Problem
What problem are we solving, and for whom?

## Goals and success metrics
- 

## Users and use cases

## Requirements
### Must have
- 

## Out of scope

## Risks and open questions
`;
