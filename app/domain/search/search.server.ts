import { sql } from "kysely";
import { db, searchStamp, sqlite } from "~/db.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import type { Actor } from "../actor";
import { validationError } from "../errors";
import { readableProjects, readerScope } from "../projects/access.server";
import type { ProjectStatus } from "../projects/projects.schema";
import { parseStatus } from "../projects/status";
import type { SearchField, SearchQuery } from "./search.schema";

/**
 * Keyword search over the projects the actor may read: name, description and
 * PRD content, through the FTS5 table `projectSearch` (rowid = projects.seq,
 * tokenizer `porter unicode61 remove_diacritics 2`), kept in step by
 * search-index.server.ts.
 *
 * - The user's text never reaches FTS5 syntax: it is split on white space,
 *   every term is quoted (so AND, OR, NEAR, `*`, `:`, `^`, parentheses and
 *   quotes are plain text) and all terms are ANDed.
 * - The last term matches as a prefix once it has at least
 *   MIN_PREFIX_LENGTH characters; shorter, it is a whole word. (A one- or
 *   two-letter prefix expands to a large part of the index: "s"* costs
 *   ~100 ms and "re"* ~60 ms at 10,000 projects, "con"* ~20 ms.) Because the
 *   porter stemmer also stems the prefix ("pay"* is "pai"*), the prefix is
 *   widened with the index's own terms (see widenPrefix), so results do not
 *   vanish while someone is typing.
 * - Ranking: bm25 weighting name 10, description 4, content 1.
 * - Visibility: the actor's organization; viewers only the projects they
 *   collaborate on (the rule of list.server.ts / access.server.ts).
 */

export const MIN_PREFIX_LENGTH = 3;
const WEIGHTS = sql.raw("10.0, 4.0, 1.0");
/** Private-use characters marking matches inside snippet(); never sent to clients. */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const SNIPPET_TOKENS = 24;
const MAX_WIDENING_TERMS = 16;

const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const TOKEN_SPLIT = /[^\p{L}\p{N}\p{Co}]+/u;

/**
 * The usable terms of a query: separated by white space (control characters
 * count as white space), each with at least one letter or digit.
 */
export function searchTerms(q: string): string[] {
  return q
    .normalize("NFC")
    .split(/[\s\p{Cc}]+/u)
    .filter((t) => TOKEN_CHAR.test(t));
}

/** The tokens FTS5's unicode61 tokenizer sees in a term, folded like remove_diacritics 2. */
export function termTokens(term: string): string[] {
  return term.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().split(TOKEN_SPLIT).filter(Boolean);
}

/** An FTS5 string literal: the text between double quotes, inner quotes doubled. */
export const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** How the last term is matched; see widenPrefix. */
export interface LastTerm {
  /** Match the term as a prefix (default: when its last token has MIN_PREFIX_LENGTH characters). */
  prefix?: boolean;
  /** Index terms ORed with it, each matched as a whole word. */
  alternatives?: string[];
}

/**
 * The FTS5 MATCH expression for the terms: every term quoted, the last one a
 * prefix (when long enough) ORed with its alternatives, everything ANDed.
 * Returns null when no term is usable.
 */
export function matchExpression(terms: string[], last: LastTerm = {}) {
  if (!terms.length) return null;
  return terms
    .map((term, i) => {
      const quoted = ftsString(term);
      if (i < terms.length - 1) return quoted;
      const prefix = last.prefix ?? (termTokens(term).at(-1) ?? "").length >= MIN_PREFIX_LENGTH;
      const options = [prefix ? `${quoted}*` : quoted, ...(last.alternatives ?? []).map(ftsString)];
      return options.length === 1 ? options[0] : `(${options.join(" OR ")})`;
    })
    .join(" AND ");
}

// ---------------------------------------------------------------------------
// Prefixes that see through the stemmer

type Handle = ReturnType<typeof sqlite>;
const stemmers = new WeakMap<Handle, (token: string) => string>();

/**
 * How FTS5 stems a one-token word ("payments" → "payment", "pay" → "pai"),
 * or null when that cannot be asked right now.
 *
 * Asks FTS5 itself: connection-local helper tables in the temp schema (no
 * migration, nothing written to the database file, so replicas can do it
 * too): an empty FTS5 table with the index's tokenizer, a vocabulary view of
 * it, and a vocabulary view of the index for widenPrefix. The word is put in,
 * its term read back and removed again in one synchronous call, so no other
 * request can interleave. Skipped while another request holds a transaction
 * on the shared connection (the helpers would join it).
 */
function stem(token: string): string | null {
  const handle = sqlite();
  if (handle.inTransaction) return null;
  let stemmer = stemmers.get(handle);
  if (!stemmer) {
    handle.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.projectSearchVocab USING fts5vocab(main, projectSearch, row);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.searchStemmer
        USING fts5(t, content='', tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.searchStemmerVocab USING fts5vocab(temp, searchStemmer, row);`);
    const put = handle.prepare("INSERT INTO temp.searchStemmer(rowid, t) VALUES (1, ?)");
    const read = handle.prepare("SELECT term FROM temp.searchStemmerVocab LIMIT 1").pluck();
    const clear = handle.prepare("INSERT INTO temp.searchStemmer(searchStemmer) VALUES ('delete-all')");
    stemmer = (word) => {
      put.run(word);
      try {
        return (read.get() as string | undefined) ?? word;
      } finally {
        clear.run();
      }
    };
    stemmers.set(handle, stemmer);
  }
  return stemmer(token);
}

/** Index terms that start with `text`, in order. */
async function indexTermsFrom(text: string, limit: number) {
  const { rows } = await sql<{ term: string }>`
    SELECT term FROM temp.projectSearchVocab
    WHERE term >= ${text} AND term < ${`${text}\u{10FFFF}`}
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.term);
}

/**
 * FTS5 stems a prefix like a word before expanding it, which breaks prefix
 * search in three ways; each is repaired with the index's own terms (found
 * through fts5vocab) so results do not vanish while someone is typing:
 * - the stem is not a prefix of what was typed ("pay"* is "pai"*, which
 *   misses "payment"): add the index terms that start with the typed text;
 * - the stem is shorter than MIN_PREFIX_LENGTH ("res"* is "re"*, half the
 *   index): match the typed word exactly plus the index terms starting with it;
 * - no index term starts with the stem because the typing went past it
 *   ("configura" while the index holds "configur"): add the longest index
 *   term the typed text starts with (at most 6 characters shorter).
 * At most MAX_WIDENING_TERMS terms are added.
 */
export async function widenPrefix(term: string): Promise<LastTerm> {
  const tokens = termTokens(term);
  const token = tokens[0];
  // Only a single-token term (not "e-pay") that is long enough to be a prefix.
  if (tokens.length !== 1 || !token || token.length < MIN_PREFIX_LENGTH) return {};
  const stemmed = stem(token);
  if (stemmed === null) return {};
  if (stemmed.length < MIN_PREFIX_LENGTH) {
    return { prefix: false, alternatives: await indexTermsFrom(token, MAX_WIDENING_TERMS) };
  }
  if (!token.startsWith(stemmed)) {
    const alternatives = await indexTermsFrom(token, MAX_WIDENING_TERMS);
    if (alternatives.length) return { alternatives };
  }
  if ((await indexTermsFrom(stemmed, 1)).length) return {};
  const shorter: string[] = [];
  for (let n = token.length - 1; n >= Math.max(MIN_PREFIX_LENGTH, token.length - 6); n--) shorter.push(token.slice(0, n));
  if (!shorter.length) return {};
  const { rows } = await sql<{ term: string }>`
    SELECT term FROM temp.projectSearchVocab WHERE term IN (${sql.join(shorter)})
    ORDER BY length(term) DESC LIMIT 1`.execute(db);
  return { alternatives: rows.map((r) => r.term) };
}

// ---------------------------------------------------------------------------
// Snippets

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * Turns an FTS5 snippet with OPEN/CLOSE markers into safe HTML: the text is
 * escaped, markers become <mark>…</mark> (always balanced, even if the
 * indexed text itself contained a marker character) and white space is
 * collapsed.
 */
export function renderSnippet(raw: string) {
  let html = "";
  let open = false;
  for (const part of raw.split(/([\uE000\uE001])/u)) {
    if (part === OPEN) {
      if (!open) html += "<mark>";
      open = true;
    } else if (part === CLOSE) {
      if (open) html += "</mark>";
      open = false;
    } else {
      html += escapeHtml(part.replace(/\s+/gu, " "));
    }
  }
  if (open) html += "</mark>";
  return html.trim();
}

// ---------------------------------------------------------------------------

/** One status or a comma-separated list (400 INVALID_STATUS for an unknown one). */
export function parseStatuses(status: string | undefined): ProjectStatus[] {
  return (status ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseStatus);
}

export interface SearchResult {
  projectId: string;
  name: string;
  status: string;
  priority: string | null;
  updatedAt: string;
  /** HTML: escaped text with the matches in <mark>. */
  snippet: string;
  matchedIn: SearchField[];
  /** keyword: -bm25, 3 decimals; semantic: cosine similarity; hybrid: fused rank score. Higher is better. */
  score: number;
}

/**
 * The ranking of a search: every matching project the reader may read, best
 * first (seq and bm25 side by side in typed arrays). One ranking serves every
 * page and the total, so paging, a different limit or returning to a search
 * costs a primary-key lookup of the page instead of ranking every match
 * again: bm25 over thousands of matches is the expensive part (about 4 ms
 * for a word in two thirds of 10,000 PRDs; the count was a second pass).
 * Matches are ranked in slices of rankDepth.depth (1,000; 12 bytes each),
 * the best first, each with the total; a page deeper than the first slice
 * ranks (and keeps) the slice it falls in. Kept per reader scope until the
 * next write to what a search reads (projects, PRD content, collaborators:
 * searchStamp), at most RANKINGS slices: about 0.8 MB in all.
 */
const RANKINGS = 64;
const rankingCache = new StampedCache<Ranking>(RANKINGS, searchStamp);
interface Ranking {
  seqs: Int32Array;
  scores: Float64Array;
  total: number;
}

/** Matches ranked (and kept) per slice; the total is counted when a slice is full. Tests lower it. */
export const rankDepth = { depth: 1000 };

function matchesOf(actor: Actor, expression: string, statuses: string[]) {
  // FTS5 drives the join (CROSS JOIN fixes the order): a match followed by a
  // primary-key lookup of the project. The other order would re-run the match
  // expression once per project of the organization.
  return sql`
    FROM projectSearch s CROSS JOIN projects p ON p.seq = s.rowid
    WHERE projectSearch MATCH ${expression}
      AND ${readableProjects(actor)}
      ${statuses.length ? sql`AND p.status IN (${sql.join(statuses)})` : sql``}`;
}

async function rankMatches(actor: Actor, expression: string, statuses: string[], offset = 0, depth = rankDepth.depth): Promise<Ranking & { total: number }> {
  const matches = matchesOf(actor, expression, statuses);
  // A top-N sort (SQLite keeps a heap of `depth` rows), not a sort of every match.
  const { rows } = await sql<{ seq: number; bm: number }>`
    SELECT s.rowid AS seq, bm25(projectSearch, ${WEIGHTS}) AS bm
    ${matches}
    ORDER BY bm, p.updatedAt DESC, p.seq DESC
    LIMIT ${depth} OFFSET ${offset}`.execute(db);
  const seqs = new Int32Array(rows.length);
  const scores = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    seqs[i] = r.seq;
    scores[i] = r.bm;
  });
  let total = offset + rows.length;
  if (rows.length === depth || (rows.length === 0 && offset > 0)) {
    const { rows: counted } = await sql<{ n: number }>`SELECT count(*) AS n ${matches}`.execute(db);
    total = Number(counted[0]?.n ?? 0);
  }
  return { seqs, scores, total };
}

/**
 * Ranked results per organization (and per viewer, who see fewer projects),
 * valid until the next write to a project, a PRD's content or a
 * collaborator (searchStamp): the same search comes back as people page,
 * refine and return, while comments, sessions and background events leave it be.
 */
const searchCache = new StampedCache<Awaited<ReturnType<typeof rankedSearch>>>(500, searchStamp);

/** Keyword search (mode=keyword); search-modes.server.ts adds semantic and hybrid on top. */
export function keywordSearch(actor: Actor, query: SearchQuery) {
  const key = JSON.stringify([readerScope(actor), query.q, query.status ?? "", query.limit, query.offset]);
  return searchCache.get(key, () => rankedSearch(actor, query));
}

async function rankedSearch(actor: Actor, query: SearchQuery) {
  const terms = searchTerms(query.q);
  const widening = terms.length ? await widenPrefix(terms[terms.length - 1]!) : {};
  const expression = matchExpression(terms, widening);
  if (!expression) throw validationError("q", "q needs at least one word with a letter or digit");

  const statuses = parseStatuses(query.status);
  // Matches are ranked rankDepth at a time (the best 1,000, the next 1,000...), each slice once and shared by every
  // page in it until a search's data changes; a page that straddles two slices takes both.
  const depth = rankDepth.depth;
  const slices = [];
  for (let slice = Math.floor(query.offset / depth); slice <= Math.floor((query.offset + query.limit - 1) / depth); slice++) {
    slices.push(
      await rankingCache.get(JSON.stringify([readerScope(actor), expression, statuses, slice, depth]), () =>
        rankMatches(actor, expression, statuses, slice * depth, depth),
      ),
    );
  }
  const start = query.offset % depth;
  const total = slices[0]!.total;
  const seqs = slices.length === 1 ? slices[0]!.seqs : Int32Array.from(slices.flatMap((r) => Array.from(r.seqs)));
  const scores = slices.length === 1 ? slices[0]!.scores : Float64Array.from(slices.flatMap((r) => Array.from(r.scores)));
  const ranking = { seqs, scores };
  const pageSeqs = Array.from(ranking.seqs.subarray(start, start + query.limit));
  const scoreOf = new Map(pageSeqs.map((seq, i) => [seq, ranking.scores[start + i]!]));
  const found = pageSeqs.length
    ? await db.selectFrom("projects").select(["seq", "id", "name", "status", "priority", "updatedAt"]).where("seq", "in", pageSeqs).execute()
    : [];
  const bySeq = new Map(found.map((r) => [r.seq, r]));
  // In ranking order; a project deleted since the ranking was made cannot be here (a write renews the stamp).
  const top = pageSeqs.flatMap((seq) => {
    const row = bySeq.get(seq);
    return row ? [{ ...row, bm: scoreOf.get(seq)! }] : [];
  });

  // Snippets and matched columns for the page only. `+s.rowid` keeps the IN
  // list a filter: as an FTS5 rowid constraint it would re-run the (prefix)
  // match once per row.
  const details = new Map<number, { snippet: string; name: number; description: number; content: number }>();
  if (top.length) {
    const { rows } = await sql<{ seq: number; snippet: string; name: number; description: number; content: number }>`
      SELECT s.rowid AS seq,
        snippet(projectSearch, -1, ${OPEN}, ${CLOSE}, '…', ${SNIPPET_TOKENS}) AS snippet,
        instr(highlight(projectSearch, 0, ${OPEN}, ${CLOSE}), ${OPEN}) > 0 AS name,
        instr(highlight(projectSearch, 1, ${OPEN}, ${CLOSE}), ${OPEN}) > 0 AS description,
        instr(snippet(projectSearch, 2, ${OPEN}, ${CLOSE}, '', 1), ${OPEN}) > 0 AS content
      FROM projectSearch s
      WHERE projectSearch MATCH ${expression} AND +s.rowid IN (${sql.join(top.map((r) => r.seq))})`.execute(db);
    for (const row of rows) details.set(row.seq, row);
  }

  const results: SearchResult[] = top.map((row) => {
    const d = details.get(row.seq);
    const matchedIn: SearchField[] = [];
    if (d?.name) matchedIn.push("name");
    if (d?.description) matchedIn.push("description");
    if (d?.content) matchedIn.push("content");
    return {
      projectId: row.id,
      name: row.name,
      status: row.status,
      priority: row.priority,
      updatedAt: row.updatedAt,
      snippet: renderSnippet(d?.snippet ?? row.name),
      matchedIn,
      score: Math.round(-row.bm * 1000) / 1000 || 0,
    };
  });
  return { results, total, mode: "keyword" as const, query: query.q };
}
