// Importing an area's module registers its job handlers with the worker.
import "~/domain/mail/mail.server";
import "~/domain/events/events.server";
import "~/domain/webhooks/delivery.server";
import "~/domain/notifications/listeners.server";
import "~/domain/search/embeddings.server";
// Scheduled export runs, their every-minute tick and the status-change trigger.
import "~/domain/scheduled-exports/runs.server";
// Not jobs, but usage counters the billing limits read: registered at start-up, not on first upload.
import "~/domain/uploads/usage.server";
