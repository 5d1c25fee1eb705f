import path from "node:path";
import SQLite from "better-sqlite3";

/**
 * A fresh owner on the running app: registered through the API, the
 * organization moved to Enterprise (no plan limits in the way), and an API
 * key with a rate limit no benchmark reaches.
 */
export async function enterpriseOwner(base: string, dataDir: string, email: string) {
  const json = { "Content-Type": "application/json", Origin: base };
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Bench Owner", email, password: "Bench-Owner-2026" }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
  const orgId = ((await reg.json()) as { organization: { id: string } }).organization.id;
  const admin = new SQLite(path.join(dataDir, "app.db"));
  admin.prepare("update organizations set plan = 'enterprise' where id = ?").run(orgId);
  admin.close();
  const keyRes = await fetch(`${base}/api/admin/rest-api-keys`, {
    method: "POST",
    headers: { ...json, cookie },
    body: JSON.stringify({ name: "bench", rateLimit: 100_000 }),
  });
  if (keyRes.status !== 201) throw new Error(`API key: ${keyRes.status} ${await keyRes.text()}`);
  const auth = { Authorization: `Bearer ${((await keyRes.json()) as { apiKey: { key: string } }).apiKey.key}` };
  return { orgId, cookie, auth };
}
