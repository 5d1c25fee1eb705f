/** Contracts of this area: file exports of PRDs. */
import { bulkExportSchema, singleExportSchema } from "~/domain/exports/export.schema";
import { contract } from "../contract";

const tag = "Exports";

const SINGLE =
  "Body: `projectId` (a project you can read) or `content` (markdown), at least one of the two; `title` optional (default: the project's name, or “Untitled PRD”). Both together export `content` as that project's text (an unsaved draft): the project is read-checked, its images embedded and its export held for approval like any project export. " +
  "Answers the file as an attachment (`Content-Disposition: attachment` with a safe file name derived from the title). " +
  "Project exports are recorded as `export.completed` events (data: projectId, format, bytes) and in the audit log; a renderer failure answers 500 INTERNAL_ERROR and emits `export.failed`. " +
  "With an active `prd_export` approval workflow (Enterprise), exporting a project answers 202 APPROVAL_REQUIRED with the approval request; once approved, the requester's next export of that project goes through once. Content exports are never held.";

export const exportPdf = contract({
  method: "POST",
  path: "/api/export/pdf",
  tag,
  summary: "Export a PRD as PDF",
  description: `${SINGLE} Needs the \`export_pdf\` feature flag.`,
  auth: "user",
  flag: "export_pdf",
  body: singleExportSchema,
  responseType: "application/pdf",
  heldBy: "prd_export",
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "FEATURE_DISABLED", "CONFLICT", "INTERNAL_ERROR"],
});

export const exportHtml = contract({
  method: "POST",
  path: "/api/export/html",
  tag,
  summary: "Export a PRD as a self-contained HTML file",
  description: `${SINGLE} One file with inline styles and images, and no scripts.`,
  auth: "user",
  body: singleExportSchema,
  responseType: "text/html",
  heldBy: "prd_export",
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "CONFLICT", "INTERNAL_ERROR"],
});

export const exportDocx = contract({
  method: "POST",
  path: "/api/export/docx",
  tag,
  summary: "Export a PRD as a Word document (DOCX)",
  description: `${SINGLE} Needs the \`export_docx\` feature flag.`,
  auth: "user",
  flag: "export_docx",
  body: singleExportSchema,
  responseType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  heldBy: "prd_export",
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "FEATURE_DISABLED", "CONFLICT", "INTERNAL_ERROR"],
});

export const exportBulk = contract({
  method: "POST",
  path: "/api/export/bulk",
  tag,
  summary: "Export several PRDs as one zip",
  description:
    "Body: `projectIds` (1 to 20 project ids; more is 400 TOO_MANY_PROJECTS) and `format` (`pdf`, `html`, `markdown`, or `all` for the three in one folder per project). " +
    "Every project must be readable by you, else 404 for the whole request (`details` names each missing id). `pdf` and `all` need the `export_pdf` flag. " +
    "The zip is streamed while it is built, one project at a time (no Content-Length); it ends with a README.txt listing the files and any file that could not be rendered. " +
    "If the first project cannot be rendered the request fails with 500 before any byte is sent. One `export.completed` event (data: projectIds, format, bytes) when the zip is complete. " +
    "With an active `prd_export` approval workflow, every project needs an approved export of yours: otherwise one approval request is made per project lacking one and the answer is 202 APPROVAL_REQUIRED with `approvalRequest` (the first) and `approvalRequests` (all).",
  auth: "user",
  body: bulkExportSchema,
  responseType: "application/zip",
  heldBy: "prd_export",
  errors: ["VALIDATION_ERROR", "TOO_MANY_PROJECTS", "NOT_FOUND", "FEATURE_DISABLED", "CONFLICT", "INTERNAL_ERROR"],
});
