import { isPrimary, primaryInstance } from "~/db.server";

/**
 * Follows this machine's LiteFS role. LiteFS writes `${LITEFS_DIR}/.primary`
 * on replicas and removes it when the machine wins the Consul lease, so the
 * role can change under a running process. The watcher reads it every second
 * (inotify is not reliable on a FUSE mount) and tells its listeners when it
 * changes: lifecycle.server.ts starts the scheduler on promotion and stops it
 * on demotion. The worker checks the role before every claim by itself.
 */

export type Role = "primary" | "replica";
type Listener = (role: Role, previous: Role) => void | Promise<void>;

const listeners = new Set<Listener>();
let known: Role | undefined;
let timer: NodeJS.Timeout | undefined;
let checking: Promise<Role> | undefined;

export function currentRole(): Role {
  return isPrimary() ? "primary" : "replica";
}

/** Calls `listener` on every role change; returns the unsubscribe function. */
export function onRoleChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Reads the role now and, when it differs from the last one seen, runs the
 * listeners (one after another, awaited). Tests call it to step a hand-over.
 */
export function checkRole(): Promise<Role> {
  checking = (checking ?? Promise.resolve(currentRole())).then(async () => {
    const role = currentRole();
    const previous = known;
    known = role;
    if (previous && previous !== role) {
      const primary = role === "replica" ? ` (primary is ${primaryInstance()})` : "";
      console.log(`[litefs] this machine is now the ${role}${primary}`);
      for (const listener of listeners) {
        try {
          await listener(role, previous);
        } catch (error) {
          console.error("[litefs] role change handler failed", error);
        }
      }
    }
    return role;
  });
  return checking;
}

/** Starts polling the role; `initial` is the role the caller has already acted on. */
export function startRoleWatch(options: { intervalMs?: number; initial?: Role } = {}) {
  if (timer) return;
  known = options.initial ?? currentRole();
  const intervalMs = options.intervalMs ?? 1000;
  const tick = () => {
    void checkRole().finally(() => {
      if (timer) timer = setTimeout(tick, intervalMs).unref();
    });
  };
  timer = setTimeout(tick, intervalMs).unref();
}

export async function stopRoleWatch() {
  if (timer) clearTimeout(timer);
  timer = undefined;
  await checking;
  checking = undefined;
  known = undefined;
}
