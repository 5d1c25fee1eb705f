/** The password rule (docs/users.md); safe to import in the browser. */
export const PASSWORD_RULE = "At least 8 characters with an uppercase letter, a lowercase letter and a digit.";

export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push("at least 8 characters");
  if (!/[A-Z]/.test(password)) problems.push("an uppercase letter");
  if (!/[a-z]/.test(password)) problems.push("a lowercase letter");
  if (!/[0-9]/.test(password)) problems.push("a digit");
  return problems;
}
