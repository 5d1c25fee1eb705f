/**
 * The bare baseline of `npm run bench`: node:http + better-sqlite3 and
 * nothing else, answering the two benchmarked reads with the same SQL the
 * app's domain functions run and the same JSON the app returns:
 *
 *   GET /api/projects?limit=50      → {projects, total, limit, offset}
 *   GET /api/projects/{id}/prd      → {prd}
 *
 * No authentication, no routing library, no validation: the floor the
 * runtime allows. Statements are prepared once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import SQLite from "better-sqlite3";

type Row = Record<string, any>;

export async function startBareServer(dbFile: string, orgId: string) {
  const sqlite = new SQLite(dbFile, { readonly: true });
  sqlite.pragma("journal_mode = WAL");
  const page = sqlite.prepare(
    `select p.*, a.name as assigneeName from projects as p left join users as a on a.id = p.assignedToId
     where p.seq in (select p.seq from projects as p where p.orgId = ? order by p.updatedAt desc, p.seq desc limit ? offset ?)
     order by p.updatedAt desc, p.seq desc`,
  );
  const count = sqlite.prepare(`select count(*) as n from projects as p where p.orgId = ?`);
  const prd = sqlite.prepare(
    `select d.*, v.number as versionNumber, u.name as updatedByName from prds as d
     left join prdVersions as v on v.id = d.currentVersionId left join users as u on u.id = d.updatedById
     where d.projectId = ?`,
  );

  const project = (p: Row) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    priority: p.priority,
    templateId: p.templateId,
    assignedToId: p.assignedToId,
    createdById: p.createdById,
    revision: p.revision,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    assignee: p.assignedToId ? { id: p.assignedToId, name: p.assigneeName } : null,
  });

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(json) });
    res.end(json);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bare");
    if (url.pathname === "/api/projects") {
      const limit = Number(url.searchParams.get("limit") ?? 50);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const rows = page.all(orgId, limit, offset) as Row[];
      const total = (count.get(orgId) as { n: number }).n;
      return send(res, 200, { projects: rows.map(project), total, limit, offset });
    }
    const m = /^\/api\/projects\/([^/]+)\/prd$/.exec(url.pathname);
    if (m) {
      const row = prd.get(m[1]) as Row | undefined;
      if (!row) return send(res, 404, { error: "Not found", code: "NOT_FOUND" });
      return send(res, 200, {
        prd: {
          projectId: row.projectId,
          content: row.content,
          style: row.style,
          versionId: row.currentVersionId,
          versionNumber: row.versionNumber ?? null,
          createdAt: row.createdAt,
          updatedAt: row.updatedAt,
          updatedBy: row.updatedById ? { id: row.updatedById, name: row.updatedByName } : null,
        },
      });
    }
    send(res, 404, { error: "Not found", code: "NOT_FOUND" });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          sqlite.close();
          resolve();
        });
      }),
  };
}

// As a child process of the benchmark: `tsx scripts/bench/bare-server.ts <db file> <org id>` prints its URL.
if (process.argv[1]?.endsWith("bare-server.ts") && process.argv[2] && process.argv[3]) {
  const bare = await startBareServer(process.argv[2], process.argv[3]);
  console.log(`BARE ${bare.url}`);
  process.on("SIGTERM", () => void bare.close().then(() => process.exit(0)));
}
