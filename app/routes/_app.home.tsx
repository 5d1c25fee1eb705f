import { type ActionFunctionArgs, type LinksFunction, data as withHeaders, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { resolveProvider } from "~/ai/keys.server";
import { AiFirstRunCard } from "~/components/ai-first-run";
import { Notice } from "~/components/forms";
import { ContinueCard, MentionsCard, RecentProjectsCard, WaitingCard } from "~/components/home/home-sections";
import { NpsSurvey } from "~/components/nps-survey";
import { OnboardingChecklist } from "~/components/onboarding-checklist";
import { npsStatus } from "~/domain/feedback/nps.server";
import { homeFeed } from "~/domain/home/home.server";
import { mailIsDelivered } from "~/domain/mail/mail.server";
import { getOnboarding } from "~/domain/users/onboarding.server";
import { onboardingProgress } from "~/domain/users/progress.server";
import { readFlash } from "~/http/ui/flash.server";
import { formValues, requireUiActor } from "~/http/ui/ui.server";
import { aiPromptDismissed, dismissAiPrompt } from "~/utils/first-run.server";
import homeStyles from "~/styles/home.css?url";

export const meta: MetaFunction = () => [{ title: "Home · PRD Studio" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: homeStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const welcome = new URL(request.url).searchParams.has("welcome");
  const [progress, onboarding, nps, resolved, dismissed, { flash, headers }, feed] = await Promise.all([
    onboardingProgress(actor),
    getOnboarding(actor),
    npsStatus(actor),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
    aiPromptDismissed(request, actor.user.id),
    readFlash(request),
    homeFeed(actor),
  ]);
  return withHeaders(
    {
      name: actor.user.name,
      // Without SMTP no address can be confirmed, so there is nothing to ask for.
      askToConfirm: !actor.user.emailVerified && mailIsDelivered(),
      welcome,
      progress,
      onboarded: onboarding.completed,
      nps,
      feed,
      // First run: nothing but the offline drafter answers this user, and they have not dismissed the card.
      aiPrompt: resolved.source === "builtin" && !dismissed,
      // The survey's answer ("Thanks for your feedback!") comes back here.
      notice: flash?.kind === "notice" ? { message: flash.message, tone: flash.tone ?? "success" } : null,
    },
    { headers },
  );
}

/** "Dismiss" on the first-run AI card: remembered in this browser, then back to the page (post/redirect/get). */
export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  if (values.intent !== "dismiss-ai-prompt") throw new Response("Unknown action", { status: 400 });
  return redirect("/home", { headers: { "Set-Cookie": await dismissAiPrompt(actor.user.id) } });
}

export default function Home() {
  const { name, askToConfirm, welcome, progress, onboarded, nps, notice, aiPrompt, feed } = useLoaderData<typeof loader>();
  const first = name.split(" ")[0];
  const gettingStarted = progress.completedCount < progress.total;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{welcome ? `Welcome to PRD Studio, ${first}` : `Hello, ${first}`}</h1>
          <p>{gettingStarted ? "Your workspace is ready. Here is what to do next." : "Here is what needs you, and where you left off."}</p>
        </div>
      </div>
      <Notice message={notice?.message} tone={notice?.tone} />
      {askToConfirm ? (
        <div className="alert alert-warning" role="status">
          <p>
            Please confirm your e-mail address. <Link to="/settings">Resend the confirmation link</Link>
          </p>
        </div>
      ) : null}
      {!onboarded ? (
        <div className="alert alert-info" role="status">
          <p>
            Tell us a little about your work to get tailored templates. <Link to="/onboarding">Finish setting up</Link>
          </p>
        </div>
      ) : null}
      {aiPrompt ? <AiFirstRunCard /> : null}
      {/* Until every step is done the checklist leads; then it steps aside, folded, below the feed. */}
      {gettingStarted ? <OnboardingChecklist {...progress} /> : null}
      <div className="home-grid">
        <ContinueCard items={feed.continue} canCreate={feed.canCreateProjects} />
        <WaitingCard waiting={feed.waiting} />
        <MentionsCard mentions={feed.mentions} />
        <RecentProjectsCard recent={feed.recent} canCreate={feed.canCreateProjects} />
      </div>
      {gettingStarted ? null : <OnboardingChecklist {...progress} />}
      <NpsSurvey status={nps} />
    </>
  );
}
