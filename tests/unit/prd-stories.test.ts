import { describe, expect, it } from "vitest";
import { userStoriesSection } from "~/domain/trackers/prd-stories";
import { parseStories } from "~/domain/trackers/stories";

/** "Stories in this PRD" (docs/trackers.md): the PRD's user-stories section, as the tracker page sends it. */

const PRD = `# Expenses

## Problem
Paper receipts get lost.

### Not a story
This H3 is under Problem.

## User stories

### Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

- Given a photo, when I upload it, then the amount is read.

### Approve a report
As a manager, I want to approve reports, so that people are paid.

## Open questions
- Which currencies?
`;

describe("userStoriesSection", () => {
  it("returns the User stories section with its H3 stories, up to the next H2", () => {
    const section = userStoriesSection(PRD);
    expect(section).toBe(
      [
        "## User stories",
        "",
        "### Snap a receipt",
        "As an employee, I want to photograph a receipt, so that I do not keep paper.",
        "",
        "- Given a photo, when I upload it, then the amount is read.",
        "",
        "### Approve a report",
        "As a manager, I want to approve reports, so that people are paid.",
      ].join("\n"),
    );
    expect(parseStories(section!).map((s) => [s.section, s.title])).toEqual([
      ["User stories", "Snap a receipt"],
      ["User stories", "Approve a report"],
    ]);
  });

  it('accepts "User Stories", "Stories", any case, a section number and emphasis', () => {
    for (const heading of ["User Stories", "STORIES", "stories", "4. User stories", "**User stories**", "User  stories ##"]) {
      const md = `# P\n\n## ${heading}\n\n### One\nAs a user, I want one.\n`;
      expect(userStoriesSection(md), heading).toBe(`## ${heading}\n\n### One\nAs a user, I want one.`);
    }
  });

  it("ends at an H1 too, and takes the first matching section only", () => {
    const md = "## Stories\n### A\ntext\n# Appendix\n### B\n## User stories\n### C\n";
    expect(userStoriesSection(md)).toBe("## Stories\n### A\ntext");
  });

  it("is null without the heading, for other headings, or when the section has no ### story", () => {
    expect(userStoriesSection("# P\n\n## Goals\n\n### Faster\n")).toBeNull();
    expect(userStoriesSection("## User stories and personas\n### A\n")).toBeNull();
    expect(userStoriesSection("### User stories\n#### A\n")).toBeNull();
    expect(userStoriesSection("## User stories\n- As a user, I want a list, not headings.\n## Next\n### Elsewhere\n")).toBeNull();
    expect(userStoriesSection("")).toBeNull();
  });

  it("ignores headings inside code fences, and reads Windows line endings", () => {
    const fenced = "## Notes\n```\n## User stories\n### Fake\n```\n";
    expect(userStoriesSection(fenced)).toBeNull();
    const inside = "## User stories\n```md\n## Not the end\n```\n### Real\nAs a user.\n## After\n";
    expect(userStoriesSection(inside)).toBe("## User stories\n```md\n## Not the end\n```\n### Real\nAs a user.");
    expect(userStoriesSection("## User stories\r\n### A\r\ntext\r\n")).toBe("## User stories\n### A\ntext");
    expect(userStoriesSection("## User stories\n```\n### Only in code\n```\n")).toBeNull();
  });
});
