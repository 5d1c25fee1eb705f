import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A migration is frozen once it has landed: it must write tomorrow what it
 * wrote the day it landed. So it imports no application code (whose changes
 * would change it): only kysely, Node's own modules, and files of
 * db/migrations itself.
 */

const dir = path.resolve("db/migrations");
const allowed = (specifier: string) => specifier === "kysely" || specifier.startsWith("node:") || (specifier.startsWith("./") && !specifier.includes(".."));

function importsOf(file: string) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("frozen migrations", () => {
  it("import nothing but kysely, Node's modules and each other", () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(20);
    const offending = files.flatMap((f) =>
      importsOf(path.join(dir, f))
        .filter((s) => !allowed(s))
        .map((s) => `${f} imports ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it("finds an application import where there is one (the check itself works)", () => {
    const probe = path.join(dir, "..", ".probe-migration.ts");
    fs.writeFileSync(probe, 'import { encrypt } from "~/utils/crypto.server";\nconst later = () => import("#db/schema");\n');
    try {
      expect(importsOf(probe).filter((s) => !allowed(s))).toEqual(["~/utils/crypto.server", "#db/schema"]);
    } finally {
      fs.rmSync(probe);
    }
  });
});

describe("migration 0022 on a database with review requests", () => {
  it("gives each a link encrypted under the data directory's key, which the app reads", async () => {
    const { Migrator } = await import("kysely");
    const { createDb } = await import("#db/client");
    const { migrations } = await import("#db/migrations/index");
    const { decrypt } = await import("~/utils/crypto.server");
    const { config } = await import("~/config.server");
    const { sha256 } = await import("~/utils/ids.server");
    // The app's key, from DATA_DIR/secrets.json (generated on first use), as a server upgrading would have it.
    config();
    const { db, sqlite } = createDb(path.join(config().DATA_DIR, "upgrade.db"));
    sqlite.pragma("foreign_keys = OFF");
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0021_live_docs")).error).toBeUndefined();
    sqlite
      .prepare("INSERT INTO stakeholderViews (id, projectId, name, reviewStatus, createdAt, updatedAt) VALUES ('sv1', 'p1', 'Review', 'pending', 'now', 'now')")
      .run();
    expect((await migrator.migrateTo("0022_stakeholder_review_links")).error).toBeUndefined();
    const row = sqlite.prepare("SELECT reviewTokenHash, reviewTokenEncrypted FROM stakeholderViews WHERE id = 'sv1'").get() as {
      reviewTokenHash: string;
      reviewTokenEncrypted: string;
    };
    const token = decrypt(row.reviewTokenEncrypted);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sha256(token!)).toBe(row.reviewTokenHash);
    await db.destroy();
  });
});
