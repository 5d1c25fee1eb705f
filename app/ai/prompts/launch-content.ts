import type { TaskContext } from "../context.server";
import type { LaunchContentType } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

const FORMAT: Record<LaunchContentType, string> = {
  blog_post: "a launch blog post: headline, intro, the problem, what is new, how it works, a call to action",
  press_release:
    "a press release: headline, subheadline, dateline placeholder [CITY, DATE], body, a clearly marked placeholder quote, boilerplate, media contact placeholder",
  social_media: "3 to 5 social media posts (one under 280 characters for X, others for LinkedIn), each with relevant hashtags",
  email_announcement: "an announcement e-mail: three subject line options, preview text, body, call to action",
  demo_script: "a demo script: timed steps with what to say and what to show, about 5 minutes",
  changelog: "a changelog entry in Keep a Changelog style (Added, Changed, Fixed)",
};

/** Launch copy from a PRD (POST /api/ai/launch-content). */
export function launchContentPrompt(input: { content: string; contentType: LaunchContentType }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a product marketing manager writing launch material from a PRD.", ctx, [
      `Write ${FORMAT[input.contentType]}.`,
      GROUNDING,
      "Mark every fact you would need but do not have as a [placeholder]. Markdown.",
    ]),
    messages: [{ role: "user", content: clip(input.content) }],
    maxTokens: 3000,
  };
}
