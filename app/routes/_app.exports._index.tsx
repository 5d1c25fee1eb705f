import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { type BulkFormatOption, BulkExportForm } from "~/components/exports/bulk-export-form";
import { BULK_MAX_PROJECTS } from "~/domain/exports/export.schema";
import { exportMenu } from "~/domain/exports/export.server";
import { listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { readFlash } from "~/http/ui/flash.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Exports · PRD Studio" }];

const LIST_LIMIT = 200;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const [list, menu, { flash, headers }] = await Promise.all([
    listProjects(actor, listProjectsSchema.parse({ search: q || undefined, sortBy: "name", sortOrder: "asc", limit: LIST_LIMIT })),
    exportMenu(actor),
    readFlash(request),
  ]);
  const pdf = menu.formats.find((f) => f.format === "pdf")!;
  const formats: BulkFormatOption[] = [
    { value: "pdf", label: "PDF", hint: "One PDF per project.", enabled: pdf.enabled, reason: pdf.reason },
    { value: "html", label: "HTML", hint: "One self-contained web page per project.", enabled: true, reason: null },
    { value: "markdown", label: "Markdown", hint: "The PRD's text, one .md file per project.", enabled: true, reason: null },
    {
      value: "all",
      label: "All formats",
      hint: "A folder per project with the PDF, the HTML and the Markdown.",
      enabled: pdf.enabled,
      reason: pdf.enabled ? null : `Needs PDF export, which is turned off for your organization.`,
    },
  ];
  const requested = url.searchParams.get("format") ?? "";
  const format = formats.find((f) => f.value === requested && f.enabled)?.value ?? (pdf.enabled ? "pdf" : "html");
  const result = url.searchParams.get("result");
  return withHeaders(
    {
      projects: list.projects.map((p) => ({ id: p.id, name: p.name, status: p.status })),
      total: list.total,
      q,
      selected: url.searchParams.getAll("selected"),
      format,
      formats,
      needsApproval: menu.needsApproval,
      message: flash?.kind === "notice" ? { text: flash.message, tone: result === "error" ? "error" : result === "held" ? "info" : "success" } : null,
    },
    { headers },
  );
}

export default function Exports() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="stack" style={{ maxWidth: 760 }}>
      <div className="form-row">
        <h1>Exports</h1>
        <Link to="/exports/schedules">Scheduled exports</Link>
      </div>
      <p className="muted">
        Download several PRDs at once as a zip, or set up scheduled exports delivered by e-mail or webhook. To export a single PRD, use the Export menu on its
        project page.
      </p>
      {data.message ? (
        <div className={`alert alert-${data.message.tone}`} role={data.message.tone === "error" ? "alert" : "status"}>
          <p>{data.message.text}</p>
        </div>
      ) : null}
      {data.needsApproval ? (
        <div className="alert alert-info">
          <p>Exports need approval in this organization: the first download of each project sends a request to the approvers.</p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="bulk-heading">
        <h2 id="bulk-heading">Bulk export</h2>
        <Form method="get" className="form-row" role="search" style={{ justifyContent: "flex-start", marginBottom: 12 }}>
          <label htmlFor="exports-search">Search projects</label>
          <input id="exports-search" name="q" type="search" defaultValue={data.q} placeholder="Part of a project name" />
          <button type="submit" className="btn btn-secondary btn-sm">
            Search
          </button>
          {data.q ? <Link to="/exports">Show all</Link> : null}
        </Form>
        {data.projects.length === 0 ? (
          <div className="empty-state">
            {data.q ? (
              <>
                <h3>No project matches “{data.q}”</h3>
                <p>
                  Try another word, or <Link to="/exports">show every project</Link>.
                </p>
              </>
            ) : (
              <>
                <h3>No projects to export yet</h3>
                <p>Projects you can read appear here. Create one and write its PRD first.</p>
                <Link to="/projects/new" className="btn">
                  New project
                </Link>
              </>
            )}
          </div>
        ) : (
          <>
            {data.total > data.projects.length ? (
              <p className="muted">
                Showing the first {data.projects.length} of {plural(data.total, "project")}, by name. Search to find others.
              </p>
            ) : null}
            <BulkExportForm projects={data.projects} selected={data.selected} format={data.format} formats={data.formats} max={BULK_MAX_PROJECTS} />
          </>
        )}
      </section>
    </div>
  );
}
