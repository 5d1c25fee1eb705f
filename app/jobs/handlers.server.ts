// Importing an area's module registers its job handlers with the worker.
import "~/domain/mail/mail.server";
import "~/domain/events/events.server";
import "~/domain/search/embeddings.server";
