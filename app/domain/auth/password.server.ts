import { hash, verify } from "@node-rs/argon2";
import { AppError, type ErrorDetail } from "../errors";
import { passwordProblems } from "./password";

// argon2id (the library default) with OWASP's minimum memory cost.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string) {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spend the same time as a real check so unknown e-mails cannot be told apart. */
export async function burnPasswordCheck(password: string) {
  dummyHash ??= hashPassword("dummy-password-for-timing-A1");
  await verifyPassword(await dummyHash, password);
}

/** Throws 400 WEAK_PASSWORD naming what is missing. */
export function assertStrongPassword(password: string, field = "password") {
  const problems = passwordProblems(password);
  if (problems.length) {
    const message = `Password needs ${problems.join(", ")}.`;
    const details: ErrorDetail[] = [{ path: field, message }];
    throw new AppError("WEAK_PASSWORD", 400, message, { details });
  }
}
