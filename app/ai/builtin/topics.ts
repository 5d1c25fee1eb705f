import { escapeRegExp } from "./literal";

/**
 * What each kind of PRD section needs: the keyword table behind the
 * interview (which question gathers a section) and the PRD writer (which
 * sentences of the answers belong in it). A section title maps to one or
 * more topics by its words; unknown titles get a generic topic built from
 * the title itself.
 */

export interface Topic {
  id: string;
  /** Matches section titles that need this topic. */
  title: RegExp;
  /** Topics this one replaces when both match one title. */
  overrides?: string[];
  /** The question that gathers the section. */
  question: string;
  /** The same need as a short clause, for sections that combine topics. */
  ask: string;
  /** What a specific answer contains; used when an answer is too thin. */
  hint: string;
  /** Cues that a sentence speaks to this topic. */
  cues: RegExp[];
  /** Lower is asked first. */
  priority: number;
  /** Written from the other sections; never asked. */
  derived?: boolean;
}

/** Words naming people who use or buy a product. */
export const ROLE =
  /\b(?:users?|customers?|clients?|personas?|buyers?|admins?|administrators?|managers?|clerks?|controllers?|analysts?|developers?|engineers?|designers?|marketers?|teams?|staff|employees?|operators?|agents?|owners?|members?|students?|teachers?|patients?|doctors?|nurses?|clinicians?|drivers?|riders?|merchants?|sellers?|shoppers?|visitors?|subscribers?|accountants?|recruiters?|candidates?|partners?|vendors?|consumers?|reps?|founders?|executives?|leads?|reviewers?|approvers?|editors?|authors?|readers?|parents?|receptionists?|hygienists?|dentists?|pharmacists?|therapists?|technicians?|coordinators?|planners?|dispatchers?|cashiers?|tenants?|landlords?|guests?|hosts?|travell?ers?|investors?|lawyers?|paralegals?|auditors?|supervisors?|volunteers?|coaches?|freelancers?|contractors?|workers?|instructors?|learners?|researchers?|specialists?|representatives?|residents?|physicians?|caregivers?|carers?|pms?|cfos?|ctos?|ceos?|sales ?people|salespeople)\b/gi;

const cues = (...alts: string[]) => alts.map((a) => new RegExp(`(?:^|[^a-z0-9])(?:${a})`, "gi"));

const PERF = cues(
  "latency",
  "performance",
  "fast",
  "\\d+\\s?ms\\b",
  "seconds?\\b",
  "p9[059]",
  "throughput",
  "requests? per",
  "per second",
  "concurrent",
  "peak",
  "load",
  "scal",
  "uptime",
  "availability",
  "99\\.",
);
const SEC = cues(
  "secur",
  "privacy",
  "private",
  "gdpr",
  "hipaa",
  "soc ?2",
  "pii",
  "personal data",
  "encrypt",
  "permission",
  "rbac",
  "role-based",
  "sso",
  "saml",
  "audit",
  "access control",
  "compliance",
  "consent",
);
const A11Y = cues("accessib", "wcag", "screen reader", "voiceover", "talkback", "contrast", "keyboard", "a11y");

export const TOPICS: Topic[] = [
  {
    id: "overview",
    title: /\b(overview|summary|introduction|background|vision|tl;?dr|elevator)\b/i,
    question: "In two or three sentences: what are you building, for whom, and why now?",
    ask: "what you are building and why now",
    hint: "Name the product or feature, the people it serves and the trigger for doing it now.",
    cues: cues("we(?:'re| are)? (?:building|launching|adding|creating)", "the (?:feature|product|tool|app) (?:will|lets|helps|allows)"),
    priority: 9,
    derived: true,
  },
  {
    id: "problem",
    title: /\b(problem|pain|motivation|challenge|opportunity|why)\b/i,
    question: "What problem are you solving, who runs into it, and how do they cope with it today?",
    ask: "the problem and how people cope today",
    hint: "Describe one concrete situation: who is stuck, what they do today, and what it costs them (time, money, errors).",
    cues: cues(
      "problem",
      "pain",
      "struggl",
      "frustrat",
      "manual",
      "by hand",
      "spreadsheet",
      "slow",
      "waste",
      "hard to",
      "difficult",
      "can(?:no|')t\\b",
      "unable",
      "today",
      "currently",
      "complain",
      "tedious",
      "chase",
      "chasing",
      "lose",
      "losing",
      "lost",
      "broken",
      "workaround",
      "error-prone",
      "unpaid",
      "overdue",
      "late",
      "miss",
      "forget",
      "forgot",
      "no-shows?\\b",
      "takes? (?:up )?(?:\\d|an? |hours|days)",
      "costs? (?:us|them|the|\\d|€|\\$)",
      "phones? (?:each|every|them)",
      "calls? (?:each|every)",
    ),
    priority: 1,
  },
  {
    id: "evidence",
    title: /\b(evidence|research|insights?|validation)\b/i,
    question: "What evidence tells you this matters: numbers, support tickets, interviews, lost deals?",
    ask: "the evidence that it matters",
    hint: "Give a figure, a ticket count, or what specific customers said.",
    cues: cues(
      "tickets?",
      "interview",
      "survey",
      "we(?:'ve)? (?:saw|seen|heard|measured)",
      "customers? (?:told|said|asked)",
      "requests?\\b",
      "complaints?",
      "feedback",
      "analytics",
      "data shows",
      "\\d+ (?:customers|users|tickets|requests|accounts)",
    ),
    priority: 3,
  },
  {
    id: "goals",
    title: /\b(goals?|metrics?|success|kpis?|objectives?|outcomes?|okrs?)\b/i,
    question: "How will you know this worked? Name the metric, its baseline today, the target, and by when.",
    ask: "how you will measure success (metric, baseline, target, timeframe)",
    hint: "A metric with numbers, e.g. what it is today, what it should become, and by when.",
    cues: cues(
      "goals?\\b",
      "metric",
      "kpi",
      "measur",
      "success",
      "target",
      "baseline",
      "increase",
      "decrease",
      "reduce",
      "cut\\b",
      "improve",
      "grow",
      "raise",
      "lower",
      "from \\d[\\d.,]*\\s?\\S* to \\d",
      "\\d+(?:\\.\\d+)?\\s?%",
      "percent",
      "conversion",
      "retention",
      "\\bnps\\b",
      "within (?:\\w+ )?(?:days?|weeks?|months?|quarters?|years?)",
      "by (?:q[1-4]|the end of)",
    ),
    priority: 3,
  },
  {
    id: "users",
    title: /\b(users|personas?|audiences?|target customers?|customer segments?|buyers?|consumers|stakeholders|who)\b/i,
    question: "Who are the primary users? Describe their role, their context and what they are trying to get done.",
    ask: "who the users are and what they need",
    hint: "Name the roles (e.g. job titles), how often they hit this, and what they are trying to get done.",
    cues: [ROLE, ...cues("persona", "audience", "segment", "mid-size", "compan(?:y|ies)", "organi[sz]ations?", "businesses", "smbs?", "enterprises?")],
    priority: 2,
  },
  {
    id: "stories",
    title: /\b(stor(?:y|ies)|use cases?|acceptance|scenarios?|jobs to be done|jtbd)\b/i,
    question: "Walk me through the key moments: what does a user do step by step, and what must be true for each step to count as done?",
    ask: "the key user journeys and when each counts as done",
    hint: "Pick one user and one task, and describe the steps and the result they expect.",
    cues: cues("as an? \\w+", "so that", "wants? to", "step", "when (?:they|i|a user|the user)", "then\\b", "use case", "scenario", "journey"),
    priority: 5,
  },
  {
    id: "requirements",
    title: /\b(requirements?|features?|capabilit(?:y|ies)|solution|functionality|epics?|what we build)\b/i,
    question: "What must the product do? List the capabilities it needs, most important first.",
    ask: "the capabilities it must have",
    hint: "List concrete capabilities, each as 'it must …' or 'users can …'.",
    cues: cues(
      "must\\b",
      "should\\b",
      "shall\\b",
      "needs? to",
      "able to",
      "allows?\\b",
      "lets?\\b",
      "supports?\\b",
      "sends?\\b",
      "shows?\\b",
      "exports?\\b",
      "imports?\\b",
      "notif",
      "integrat",
      "generat",
      "automat",
      "creates?\\b",
      "uploads?\\b",
      "search",
      "filter",
      "sync",
      "reminders?",
      "approves?\\b",
      "dashboard",
      "button",
    ),
    priority: 4,
  },
  {
    id: "nfr",
    title: /\b(non-?functional|nfrs?|quality attributes?|reliability)\b/i,
    overrides: ["requirements"],
    question: "What quality bars must it meet — performance, reliability, security, privacy, accessibility — with a number for each where you can?",
    ask: "the quality bars (performance, reliability, security)",
    hint: "Give thresholds: response time, uptime, data rules, accessibility level.",
    cues: [...PERF, ...SEC, ...A11Y],
    priority: 7,
  },
  {
    id: "performance",
    title: /\b(performance|latency|budgets?|scal(?:e|ability)|speed|device constraints)\b/i,
    question: "What are the performance limits: response times, volumes, peak load, cost ceilings?",
    ask: "the performance and cost limits",
    hint: "Numbers: how fast, how many, how much it may cost.",
    cues: [...PERF, ...cues("cost per", "\\$\\d", "budget")],
    priority: 7,
  },
  {
    id: "security",
    title: /\b(security|privacy|permissions?|access control|sso|audit|compliance|admin controls?)\b/i,
    question: "What are the security, privacy and access rules: who may see or change what, what data is sensitive, which regulations apply?",
    ask: "who may see or change what, and which data is sensitive",
    hint: "Name the roles and what each may do, the sensitive data, and any regulation.",
    cues: [...SEC, ...cues("admins? (?:can|may|only)", "only admins", "approv")],
    priority: 6,
  },
  {
    id: "accessibility",
    title: /\b(accessib\w*|a11y)\b/i,
    question: "What accessibility standard must it meet (for example a WCAG level), and which assistive technologies matter?",
    ask: "the accessibility standard",
    hint: "Name the standard and the assistive technologies to support.",
    cues: A11Y,
    priority: 8,
  },
  {
    id: "observability",
    title: /\b(observability|monitoring|analytics|telemetry|drift|events|instrumentation|logging)\b/i,
    question: "What should be measured or monitored once it is live: events, logs, dashboards, alerts?",
    ask: "what to monitor once it is live",
    hint: "Name the events or signals and who looks at them.",
    cues: cues("monitor", "alert", "dashboards?", "logs?\\b", "logging", "track", "events?\\b", "analytics", "telemetry", "drift"),
    priority: 8,
  },
  {
    id: "scope",
    title: /\b(scope|non-goals?|out of scope|boundaries|mvp)\b/i,
    question: "What is in scope for the first release, and what are you deliberately leaving out?",
    ask: "what is in and out of scope",
    hint: "Name at least one thing you will not do in the first release, and why.",
    cues: cues(
      "in scope",
      "out of scope",
      "not (?:in|part of|doing|building|include)",
      "won't",
      "will not",
      "we(?:'re| are) not",
      "later",
      "v2",
      "phase 2",
      "first (?:version|release)",
      "mvp",
      "only\\b",
      "exclud",
      "non-goal",
      "leave out",
      "leaving out",
    ),
    priority: 5,
  },
  {
    id: "ux",
    title: /\b(experience|ux|design|flows?|screens?|interface|ui|wireframes?|layout)\b/i,
    question: "How will people use it: the main flow step by step, and what they see when something is empty, loading or fails?",
    ask: "the main flow and its empty, loading and error states",
    hint: "Describe the screens in order and what the user clicks or sees.",
    cues: cues(
      "screens?",
      "page",
      "button",
      "click",
      "tap",
      "view",
      "modal",
      "form",
      "flow",
      "onboarding",
      "inbox",
      "list of",
      "empty state",
      "error message",
      "design",
    ),
    priority: 7,
  },
  {
    id: "dependencies",
    title: /\b(dependenc\w*|assumptions?|integrations?)\b/i,
    question: "What does this depend on — other teams, systems, vendors or data — and what are you assuming is true?",
    ask: "what it depends on and what you assume",
    hint: "Name the systems, vendors or teams involved and the assumptions you are making.",
    cues: cues(
      "depend",
      "rel(?:y|ies) on",
      "integrat",
      "vendor",
      "third-party",
      "provider",
      "assum",
      "requires? (?:access|data|an? )",
      "erp",
      "crm",
      "quickbooks",
      "xero",
      "salesforce",
      "stripe",
      "api from",
    ),
    priority: 8,
  },
  {
    id: "risks",
    title: /\b(risks?|riskiest|mitigations?|failure modes?|fallbacks?|guardrails?|safety|threats?)\b/i,
    question: "What could go wrong — technical, adoption, legal or operational — and how would you reduce each risk?",
    ask: "what could go wrong and how you would reduce it",
    hint: "Name one risk, how likely it is, and what you would do about it.",
    cues: cues(
      "risks?",
      "could fail",
      "might",
      "may not",
      "concern",
      "worr",
      "fallback",
      "mitigat",
      "abuse",
      "misuse",
      "fails?\\b",
      "failure",
      "breaks?\\b",
      "edge case",
      "hallucinat",
      "annoy",
      "spam",
    ),
    priority: 6,
  },
  {
    id: "release",
    title: /\b(release|launch|rollout|roll-out|rollback|milestones?|timeline|phases|go-to-market|gtm|enablement|app store)\b/i,
    question: "How will you roll it out: phases or milestones, who gets it first, what must be true before each step, and how would you roll back?",
    ask: "the rollout plan and milestones",
    hint: "Name the phases, who gets it first, and the condition to move on.",
    cues: cues(
      "launch",
      "release",
      "rollout",
      "roll (?:it )?out",
      "beta",
      "pilot",
      "milestone",
      "phases?\\b",
      "feature flag",
      "\\bga\\b",
      "general availability",
      "deadline",
      "roll ?back",
      "app store",
      "early access",
    ),
    priority: 8,
  },
  {
    id: "api",
    title: /\b(api|endpoints?|contracts?|sdk|webhooks?|interfaces? and)\b/i,
    overrides: ["ux"],
    question: "Which endpoints or operations are needed — method, path, request and response — and who calls them?",
    ask: "the endpoints or operations and who calls them",
    hint: "List operations with their inputs and outputs.",
    cues: cues(
      "api",
      "endpoint",
      "rest\\b",
      "graphql",
      "webhook",
      "request",
      "response",
      "json",
      "sdk",
      "\\/[a-z][\\w/-]*",
      "(?:get|post|put|patch|delete) \\/",
    ),
    priority: 3,
  },
  {
    id: "dataModel",
    title: /\b(data model|schema|migrations?|entities|database|storage)\b/i,
    overrides: ["model"],
    question: "What data is stored or changed — entities, key fields, relationships — and does existing data need migrating?",
    ask: "the data stored and how it changes",
    hint: "Name the records and their key fields.",
    cues: cues("tables?\\b", "fields?\\b", "columns?", "schema", "entit", "records?\\b", "database", "migrat", "stored?\\b"),
    priority: 5,
  },
  {
    id: "compat",
    title: /\b(compatib\w*|versioning|deprecat\w*|migration for existing|existing customers)\b/i,
    overrides: ["dataModel"],
    question: "What happens to existing users, clients or data: backwards compatibility, versioning, migration, deprecation?",
    ask: "what happens to existing users and data",
    hint: "Say what existing clients or customers must change, and by when.",
    cues: cues("existing", "backward", "breaking", "versions?\\b", "v1\\b", "deprecat", "migrat", "legacy"),
    priority: 7,
  },
  {
    id: "pricing",
    title: /\b(pricing|packaging|monetization|plans and limits)\b/i,
    question: "Which plan or price point does this belong to, what limits apply per plan, and what changes for existing customers' bills?",
    ask: "the plan, price and limits",
    hint: "Name the plan or price and any usage limits.",
    cues: cues("pric", "plans?\\b", "tiers?\\b", "\\$\\d", "per seat", "seats?\\b", "upgrade", "add-on", "free\\b", "paid\\b", "limits?\\b"),
    priority: 5,
  },
  {
    id: "business",
    title: /\b(business case|monetization|revenue|market|business|roi)\b/i,
    question: "What is the business case: which plan or price does it belong to, what revenue or cost does it move, and who approves it?",
    ask: "the business case (plan, price, revenue or cost)",
    hint: "Name the plan or price point and the revenue or cost it affects.",
    cues: cues(
      "pric",
      "plans?\\b",
      "tiers?\\b",
      "revenue",
      "\\barr\\b",
      "\\bmrr\\b",
      "upsell",
      "churn",
      "deals?\\b",
      "contracts?",
      "\\$\\d",
      "cost",
      "budget",
      "roi\\b",
      "pay",
      "paid",
      "seats?\\b",
      "market",
    ),
    priority: 4,
  },
  {
    id: "architecture",
    title: /\b(architecture|components|system design|technical approach|implementation)\b/i,
    question: "How should it be built: the main components, where they run and how they talk to each other?",
    ask: "the main components and how they connect",
    hint: "Name the services, stores and integrations involved.",
    cues: cues(
      "services?\\b",
      "server",
      "database",
      "queue",
      "worker",
      "components?",
      "architecture",
      "frontend",
      "backend",
      "cache",
      "cron",
      "job\\b",
      "jobs\\b",
    ),
    priority: 5,
  },
  {
    id: "model",
    title: /\b(model approach|models?|machine learning|ml|llm|algorithm|prompting)\b/i,
    question: "What approach will the AI take — which model or technique, what inputs it sees, what it outputs — and why that approach?",
    ask: "the model approach, its inputs and outputs",
    hint: "Name the technique, what goes in and what comes out.",
    cues: cues("model", "llm", "gpt", "classif", "embedding", "fine-tun", "prompt", "rag\\b", "retrieval", "inference", "\\bml\\b", "algorithm"),
    priority: 4,
  },
  {
    id: "data",
    title: /\b(data and privacy|training data|data sources?|datasets?)\b/i,
    question: "What data does it use — sources, volume, labels, retention — and what personal data is involved?",
    ask: "the data it uses and what personal data is involved",
    hint: "Name the data sources and how long data is kept.",
    cues: cues("data\\b", "dataset", "training", "labels?", "sources?", "retention", "pii", "personal"),
    priority: 5,
  },
  {
    id: "evaluation",
    title: /\b(evaluation|evals?|testing|test strategy|qa|experiments?|benchmarks?)\b/i,
    question: "How will you test or evaluate quality before and after launch — test set, measures, pass threshold, human review?",
    ask: "how quality is tested or evaluated",
    hint: "Name the test set or experiment and the pass threshold.",
    cues: cues("evaluat", "evals?\\b", "test", "accuracy", "precision", "recall", "benchmark", "golden", "a\\/b", "experiment", "threshold"),
    priority: 6,
  },
  {
    id: "humanLoop",
    title: /\b(human-in-the-loop|human in the loop|moderation|review queue)\b/i,
    question: "Where does a person review, correct or override the output, and what happens to those corrections?",
    ask: "where people review or override the output",
    hint: "Say who reviews, when, and what they can change.",
    cues: cues("review", "approv", "override", "correct", "human", "moderat", "escalat"),
    priority: 6,
  },
  {
    id: "platform",
    title: /\b(platforms?|devices?|offline|network|mobile|ios|android|browsers?)\b/i,
    question: "Which platforms and devices must it support, and what should happen offline or on a weak connection?",
    ask: "the platforms and offline behaviour",
    hint: "Name the platforms and what works without a connection.",
    cues: cues("ios", "android", "mobile", "phone", "tablet", "web\\b", "browser", "desktop", "offline", "network", "connection", "sync", "device"),
    priority: 6,
  },
  {
    id: "dod",
    title: /\b(definition of done|done criteria|exit criteria)\b/i,
    question: "What must be true before this counts as done?",
    ask: "what done means",
    hint: "List the checks that must pass.",
    cues: cues("done", "exit criteria", "sign-off", "sign off"),
    priority: 9,
    derived: true,
  },
  {
    id: "open",
    title: /\b(open questions?|questions|unknowns|tbd|parking lot)\b/i,
    question: "What is still undecided, and who needs to decide it?",
    ask: "what is still undecided",
    hint: "Name the decision and who makes it.",
    cues: cues("not sure", "unsure", "undecided", "tbd", "don't know yet", "open question", "\\?"),
    priority: 10,
    derived: true,
  },
];

const BY_ID = new Map(TOPICS.map((t) => [t.id, t]));
export const topic = (id: string) => BY_ID.get(id)!;

const STOP = new Set(["and", "the", "for", "with", "from", "into", "plan", "section", "notes", "details", "other", "key"]);

/** A topic for a section title the table does not know. */
function customTopic(title: string): Topic {
  const stems = (title.toLowerCase().match(/[a-z][a-z-]+/g) ?? [])
    .filter((w) => w.length > 3 && !STOP.has(w))
    .map((w) => w.slice(0, Math.max(4, w.length - 3)).replace(/[^a-z]/g, ""));
  return {
    id: `custom:${title}`,
    title: /$^/,
    question: `What should the ${title} section say?`,
    ask: `what the ${title} section should say`,
    hint: `Give the facts, names or numbers the ${title} section needs.`,
    // The stems are letters only; escaped all the same, as any text from the user is before it reaches a pattern.
    cues: stems.length ? cues(...stems.map(escapeRegExp)) : [],
    priority: 6,
  };
}

/** Topics a section title needs, most specific first. */
export function topicsForTitle(title: string): Topic[] {
  const found = TOPICS.filter((t) => t.title.test(title));
  const dropped = new Set(found.flatMap((t) => t.overrides ?? []));
  // "Riskiest Assumptions" is a risk section, not a dependencies section.
  if (found.some((t) => t.id === "risks")) dropped.add("dependencies");
  // "Scope and Non-Goals" is not a goals section; "Architecture Overview" is not the overview.
  if (/non-goals?/i.test(title) && !/(?<!non-)\bgoals?\b/i.test(title)) dropped.add("goals");
  if (found.length > 1) dropped.add("overview");
  const kept = found.filter((t) => !dropped.has(t.id));
  kept.sort((a, b) => position(title, a) - position(title, b));
  return kept.length ? kept : [customTopic(title)];
}

function position(title: string, t: Topic) {
  const m = t.title.exec(title);
  return m ? m.index : 999;
}

/** How strongly a sentence speaks to a topic: cue hits, each counted at most twice. */
export function cueScore(text: string, t: Topic) {
  let score = 0;
  for (const cue of t.cues) {
    cue.lastIndex = 0;
    score += Math.min(2, text.match(cue)?.length ?? 0);
  }
  return score;
}
