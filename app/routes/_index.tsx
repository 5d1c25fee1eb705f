import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PublicHeader } from "~/components/public-header";
import { getUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [
  { title: "PRD Studio — write product requirements with AI" },
  {
    name: "description",
    content: "Describe an idea in a conversation and get a strong PRD your team can review, score and ship from. Self-hosted.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getUiActor(request, context)) throw redirect("/home");
  return null;
}

const FEATURES = [
  ["Conversation to PRD", "Answer a few sharp questions; get a structured, complete requirements document."],
  ["Review and score", "An AI coach scores clarity, completeness and risk, and tells you what is missing."],
  ["Everything downstream", "User stories, technical specs, roadmaps, diagrams and launch copy from the same source."],
  ["Built for teams", "Comments, share links, stakeholder reviews, versions, exports and an API for everything."],
];

export default function Landing() {
  return (
    <div className="landing">
      <PublicHeader signedIn={false} />
      <main id="main">
        <section className="hero">
          <h1>From idea to a PRD your team trusts</h1>
          <p>
            Describe what you want to build. PRD Studio asks the right questions, drafts the document, and keeps your team aligned from review to launch. Runs
            on your own server, even offline.
          </p>
          <Link className="btn" to="/sign-up">
            Create your free account
          </Link>
        </section>
        <section className="features" aria-label="Features">
          {FEATURES.map(([title, text]) => (
            <div className="card" key={title}>
              <h2>{title}</h2>
              <p className="muted">{text}</p>
            </div>
          ))}
        </section>
      </main>
    </div>
  );
}
