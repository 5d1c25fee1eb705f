import { z } from "zod/v4";

/**
 * Lanes of background work (docs/design/background-work.md, "Lanes"). Every
 * job type belongs to one lane; each lane runs at most `concurrency` jobs at
 * once and gives each one `timeoutSeconds`, so a hung receiver holds up only
 * the jobs of its own kind: six webhooks to a server that never answers fill
 * the webhook lane, and an e-mail still goes out through the mail lane.
 *
 * No runtime dependencies: app/config.server.ts parses the operator's
 * overrides with `laneSettingsSchema`, and the jobs runtime reads them.
 */

export const LANES = ["mail", "webhooks", "exports", "trackers", "slack", "other"] as const;
export type LaneName = (typeof LANES)[number];

/** The queues /api/health reports: the lanes, and the outbox events the worker dispatches. */
export const QUEUES = [...LANES, "events"] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * Defaults. The timeouts are longer than the bounds the handlers set
 * themselves (a webhook POST 10 s, SMTP `SMTP_TIMEOUT_MS`, a provider call
 * `AI_TIMEOUT_MS`), so a handler normally ends on its own and records why;
 * the lane's timeout is for the one that does not. Exports render one at a
 * time in the render pool's threads already.
 */
export const LANE_DEFAULTS: Readonly<Record<LaneName, { concurrency: number; timeoutSeconds: number }>> = {
  mail: { concurrency: 2, timeoutSeconds: 120 },
  webhooks: { concurrency: 4, timeoutSeconds: 60 },
  exports: { concurrency: 1, timeoutSeconds: 900 },
  trackers: { concurrency: 2, timeoutSeconds: 120 },
  slack: { concurrency: 2, timeoutSeconds: 60 },
  other: { concurrency: 2, timeoutSeconds: 600 },
};

/** The lane of a job type, by the type's first dotted part (`email.send` → mail); unknown kinds run in `other`. */
const LANE_BY_KIND = new Map<string, LaneName>([
  ["email", "mail"],
  ["mail", "mail"],
  ["webhooks", "webhooks"],
  ["webhook", "webhooks"],
  ["scheduled-export", "exports"],
  ["export", "exports"],
  ["exports", "exports"],
  ["tracker", "trackers"],
  ["trackers", "trackers"],
  ["slack", "slack"],
]);

export function laneOf(type: string): LaneName {
  return LANE_BY_KIND.get(type.split(".", 1)[0] ?? "") ?? "other";
}

export function isLane(name: string): name is LaneName {
  return (LANES as readonly string[]).includes(name);
}

/**
 * A setting per lane or queue, as `name=value` pairs separated by commas
 * (`webhooks=8,mail=4`). Names not given keep their default. A wrong name or
 * value stops start-up with a message naming it.
 */
export function laneSettingsSchema<N extends string>(names: readonly N[], value: { min: number; max: number; integer: boolean }) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      const settings: Partial<Record<N, number>> = {};
      for (const part of (text ?? "").split(",")) {
        const item = part.trim();
        if (!item) continue;
        const at = item.indexOf("=");
        const name = (at < 0 ? item : item.slice(0, at)).trim();
        const raw = at < 0 ? "" : item.slice(at + 1).trim();
        const n = Number(raw);
        if (!(names as readonly string[]).includes(name)) {
          ctx.addIssue({ code: "custom", message: `unknown name "${name.slice(0, 40)}" (one of ${names.join(", ")})` });
        } else if (!raw || !Number.isFinite(n) || n < value.min || n > value.max || (value.integer && !Number.isInteger(n))) {
          const kind = value.integer ? "a whole number" : "a number";
          ctx.addIssue({ code: "custom", message: `${name} needs ${kind} from ${value.min} to ${value.max}` });
        } else settings[name as N] = n;
      }
      return settings;
    });
}
