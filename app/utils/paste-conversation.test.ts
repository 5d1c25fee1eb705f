import { describe, expect, it } from "vitest";
import { parsePastedConversation } from "./paste-conversation";

describe("parsePastedConversation", () => {
  it("splits on User:/Assistant:/Me:/AI: prefixes, any case, and joins continuation lines", () => {
    const text = "User: We use Postgres.\r\nAnd Fly.io.\nassistant: Noted.\n\nME: Short PRDs please\n**AI:** Sure";
    expect(parsePastedConversation(text)).toEqual([
      { role: "user", content: "We use Postgres.\nAnd Fly.io." },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "Short PRDs please" },
      { role: "assistant", content: "Sure" },
    ]);
  });

  it("treats text without prefixes as the user's, and drops empty messages", () => {
    expect(parsePastedConversation("I prefer bullet points.\nAlways.")).toEqual([{ role: "user", content: "I prefer bullet points.\nAlways." }]);
    expect(parsePastedConversation("User:\nAssistant:   \n")).toEqual([]);
    expect(parsePastedConversation("   ")).toEqual([]);
  });

  it("does not split on words that only look like a prefix", () => {
    expect(parsePastedConversation("User: the user: field is required")).toEqual([{ role: "user", content: "the user: field is required" }]);
    expect(parsePastedConversation("User: a\nUsers: are many")).toEqual([{ role: "user", content: "a\nUsers: are many" }]);
  });
});
