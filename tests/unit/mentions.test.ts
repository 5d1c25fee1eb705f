import { describe, expect, it } from "vitest";
import { mentionedEmails, mentionedMembers } from "~/domain/collaboration/comments.server";

const members = [
  { id: "ada", name: "Ada Lovelace" },
  { id: "ada2", name: "Ada" },
  { id: "bob", name: "Bob Babbage" },
  { id: "zoe", name: "Zoë Ångström" },
];

describe("mentions in comments", () => {
  it("finds members by full name, by a first name nobody else has, case-insensitively", () => {
    expect(mentionedMembers("@bob can you check?", members)).toEqual(["bob"]);
    expect(mentionedMembers("Thanks @Bob Babbage!", members)).toEqual(["bob"]);
    expect(mentionedMembers("ping @zoë ångström, please", members)).toEqual(["zoe"]);
  });

  it("prefers the longest name and does not read partial words", () => {
    expect(mentionedMembers("@Ada Lovelace review this", members)).toEqual(["ada"]);
    // "Ada" is a full name of its own; "@Ada" alone is that member, never the first name of Ada Lovelace.
    expect(mentionedMembers("@Ada review this", members)).toEqual(["ada2"]);
    expect(mentionedMembers("@Bobby and @Babbage", members)).toEqual([]);
    expect(mentionedMembers("mail bob@Bob Babbage", members)).toEqual([]);
  });

  it("still reads e-mail mentions", () => {
    expect(mentionedEmails("cc @Bob@Example.com.")).toEqual(["bob@example.com"]);
    expect(mentionedMembers("no mentions here", members)).toEqual([]);
  });
});
