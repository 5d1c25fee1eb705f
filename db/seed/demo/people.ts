import crypto from "node:crypto";
import type { Role } from "#db/schema";

/** The people of the demo organization (npm run db:seed). Everyone signs in with the password the seed prints. */

export const DEMO_ORG_NAME = "Acme Robotics";
export const DEMO_EMAIL = "demo@example.com";

const LETTERS = "abcdefghijkmnopqrstuvwxyz";
const DIGITS = "23456789";

/**
 * A fresh password for the demo's people, made once per seed and printed once:
 * three groups of five letters and digits, e.g. "Kq7mt-x3pwe-h9rva" (about 75
 * bits; it meets the password rule: an uppercase letter, a lowercase one, a digit).
 */
export function demoPassword() {
  const pick = (alphabet: string) => alphabet[crypto.randomInt(alphabet.length)]!;
  const group = () => Array.from({ length: 5 }, (_, i) => pick(i === 0 ? LETTERS : i === 2 ? DIGITS : LETTERS + DIGITS)).join("");
  const [first, ...rest] = [group(), group(), group()];
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join("-");
}

export type PersonKey = "dana" | "marcus" | "priya" | "tom" | "elena";

export interface Person {
  key: PersonKey;
  name: string;
  email: string;
  role: Role;
  jobTitle: string;
  bio: string;
}

export const PEOPLE: readonly Person[] = [
  {
    key: "dana",
    name: "Dana Reyes",
    email: DEMO_EMAIL,
    role: "owner",
    jobTitle: "Head of Product",
    bio: "Runs product for Acme's warehouse robots and the software around them.",
  },
  {
    key: "marcus",
    name: "Marcus Chen",
    email: "marcus.chen@example.com",
    role: "admin",
    jobTitle: "Engineering Manager, Fleet Software",
    bio: "Leads the fleet software team: planning, telemetry and the operator console.",
  },
  {
    key: "priya",
    name: "Priya Nair",
    email: "priya.nair@example.com",
    role: "member",
    jobTitle: "Product Manager, Operations",
    bio: "Owns the tools that site operators and remote support use every shift.",
  },
  {
    key: "tom",
    name: "Tom Okafor",
    email: "tom.okafor@example.com",
    role: "member",
    jobTitle: "Robotics Engineer",
    bio: "Works on navigation, safety controllers and charging dock firmware.",
  },
  {
    key: "elena",
    name: "Elena García",
    email: "elena.garcia@example.com",
    role: "viewer",
    jobTitle: "Customer Success Lead",
    bio: "Brings what customers at the pilot sites ask for back to the product team.",
  },
];

/** The organization's own PRD template (Templates → Organization). */
export const HARDWARE_TEMPLATE = {
  name: "Acme hardware feature",
  description:
    "Acme's outline for features that touch robot or charging dock hardware: the safety case, firmware compatibility, field rollout and the impact on service teams.",
  category: "hardware",
  initialQuestion: "What happens on the warehouse floor today that this hardware change will fix, and how often does it happen?",
  sections: [
    "Summary",
    "Problem",
    "Users and Sites",
    "Goals and Metrics",
    "Requirements",
    "Safety Case",
    "Firmware and Compatibility",
    "Field Rollout and Rollback",
    "Service and Support Impact",
    "Risks",
    "Open Questions",
  ],
  tags: ["hardware", "firmware", "safety", "rollout"],
  systemPrompt:
    "You are a senior product manager at a warehouse robotics company. Turn the conversation into a PRD with exactly these sections: Summary, Problem, Users and Sites, Goals and Metrics, Requirements, Safety Case, Firmware and Compatibility, Field Rollout and Rollback, Service and Support Impact, Risks, Open Questions. Ground every statement in what the PM said and mark anything unknown as an open question.",
};
