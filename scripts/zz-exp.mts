import http from "node:http";
import SQLite from "better-sqlite3";
import { sendResponse, toRequest } from "../app/http/node-adapter.server.ts";
import { jsonResponse } from "../app/http/respond.server.ts";
const mode = process.argv[2];
const sqlite = new SQLite("/tmp/prof-data/app.db");
const prd = sqlite.prepare(`select d.*, v.number as versionNumber, u.name as updatedByName from prds as d left join prdVersions as v on v.id = d.currentVersionId left join users as u on u.id = d.updatedById where d.projectId = ?`);
const id = "000640ff-5d58-4e7b-bca8-84c13c2f36f8";
const body = () => { const row = prd.get(id) as any; return { prd: { projectId: row.projectId, content: row.content, style: row.style, versionId: row.currentVersionId, versionNumber: row.versionNumber ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt, updatedBy: null } }; };
const server = http.createServer((req, res) => {
  if (mode === "bare") {
    const json = JSON.stringify(body());
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(json) });
    return res.end(json);
  }
  if (mode === "bare9") {
    const json = JSON.stringify(body());
    res.writeHead(200, ["api-version", "1", "cache-control", "no-store", "content-type", "application/json; charset=utf-8", "etag", '"ff32054e-1fde-4ca7-b397-1624b343c865"', "x-ratelimit-limit", "100000", "x-ratelimit-remaining", "99999", "x-ratelimit-reset", "1795505277", "Content-Length", String(Buffer.byteLength(json))]);
    return res.end(json);
  }
  const request = mode === "adapter" ? toRequest(req, res, false) : null;
  Promise.resolve().then(async () => {
    const h = new Headers({ "API-Version": "1" });
    h.set("x-ratelimit-limit", "100000"); h.set("x-ratelimit-remaining", "99999"); h.set("x-ratelimit-reset", "1795505277"); h.set("ETag", '"ff32054e-1fde-4ca7-b397-1624b343c865"');
    return jsonResponse(body(), 200, h);
  }).then((r) => sendResponse(res, r));
});
server.listen(Number(process.argv[3]), "127.0.0.1");
