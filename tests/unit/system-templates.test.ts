import { describe, expect, it } from "vitest";
import { SYSTEM_TEMPLATES } from "#db/seed/system-templates";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";

describe("built-in system templates", () => {
  it("are inserted once, with a first version, and left alone afterwards", async () => {
    const first = await ensureSystemTemplates();
    expect(first.sort()).toEqual(SYSTEM_TEMPLATES.map((t) => t.id).sort());
    await db.updateTable("templates").set({ name: "Edited by a superadmin" }).where("id", "=", "sys-standard-prd").execute();
    expect(await ensureSystemTemplates()).toEqual([]);
    const row = await db.selectFrom("templates").selectAll().where("id", "=", "sys-standard-prd").executeTakeFirstOrThrow();
    expect(row.name).toBe("Edited by a superadmin");
    expect(row.templateType).toBe("system");
    expect(row.visibility).toBe("public");
    const versions = await db.selectFrom("templateVersions").select("number").where("templateId", "=", "sys-standard-prd").execute();
    expect(versions).toEqual([{ number: 1 }]);
  });

  it("each has sections that its system prompt lays out as ## headings, in order", () => {
    expect(SYSTEM_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    for (const t of SYSTEM_TEMPLATES) {
      expect(t.sections.length, t.id).toBeGreaterThanOrEqual(8);
      expect(t.initialQuestion.length, t.id).toBeGreaterThan(20);
      const headings = [...t.systemPrompt.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
      expect(headings, t.id).toEqual(t.sections);
    }
  });
});
