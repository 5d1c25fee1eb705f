/**
 * One line per tag of /api/openapi.json. A contract with a tag missing here
 * stops the document from being generated (app/http/api/openapi.server.ts).
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  System: "Health and this OpenAPI document.",
  Authentication: "Registration, sign-in and -out, passwords and e-mail verification.",
  "API keys": "REST API keys of the organization (`svc_...`): create, list, revoke.",
  "AI provider keys": "Personal and organization keys for the AI providers, and testing them.",
  Projects: "Projects: create, read, update, delete, status, assignment, history and activity.",
  "PRD documents": "A project's PRD, its versions and the PRD check.",
  "Live PRD editing":
    "Real-time co-editing of a project's PRD: a Yjs document streamed over SSE, updates and presence sent by POST, saved as PRD versions after a pause in typing.",
  "Chat and PRD generation": "The conversational builder and PRD generation (SSE streams).",
  "AI tools": "Coach, improve, suggestions, stories, specs, roadmap, launch content, diagrams, score and saved outputs.",
  Memory: "What the AI remembers across projects: memories and extraction.",
  Collaboration: "Comments, sharing, collaborators, stakeholder views and reviews, project links.",
  "Files and folders": "A project's files and folders.",
  Search: "Search across the organization's projects.",
  Templates: "PRD templates, their versions and administration.",
  Marketplace: "The template marketplace, submissions and quick start.",
  "User account": "Profile, timezone, onboarding, activity, data export and account deletion.",
  Notifications: "In-app notifications, preferences and unsubscribe links.",
  Webhooks: "Outgoing webhooks: subscriptions, deliveries and tests.",
  "Incoming webhooks": "Endpoints other services call to act in PRD Studio.",
  "Feature flags": "Feature flags and their rules.",
  Feedback: "NPS survey answers.",
  Uploads: "Document, image and audio uploads.",
  Organization: "Organization settings, members, invitations, teams and switching.",
  Billing: "Plans, usage, checkout and the billing portal.",
  "Audit log": "The organization's audit log and its export.",
  "IP allowlist": "The addresses the organization accepts requests from.",
  Approvals: "Approval workflows and the requests they hold.",
  Administration: "The administration dashboard, analytics, all projects and irreversible deletes.",
  Exports: "PDF, HTML, DOCX and bulk exports.",
  "Scheduled exports": "Exports delivered on a schedule by e-mail or webhook.",
  Integrations: "Notes, wiki and docs workspaces: OAuth connections and exports.",
};
