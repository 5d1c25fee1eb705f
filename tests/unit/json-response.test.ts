import { describe, expect, it } from "vitest";
import { JSON_TEXT, jsonResponse } from "~/http/api/respond.server";

/**
 * jsonResponse makes its body stream only when somebody reads it (the node
 * adapter writes the text instead); to everyone else it is a plain Response.
 */
describe("jsonResponse", () => {
  const textOf = (r: Response) => (r as Response & { [JSON_TEXT]?: string })[JSON_TEXT];

  it("is a Response with the contract's headers and the JSON as its text", async () => {
    const res = jsonResponse({ name: "Café ☕", n: 1 }, 201, { ETag: '"v1"' });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("API-Version")).toBe("1");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("ETag")).toBe('"v1"');
    expect(textOf(res)).toBe('{"name":"Café ☕","n":1}');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ name: "Café ☕", n: 1 });
    expect(res.bodyUsed).toBe(true);
    // Read once: the adapter no longer takes the text, and a second read fails as on any Response.
    expect(textOf(res)).toBeUndefined();
    await expect(res.text()).rejects.toThrow();
    expect(() => res.clone()).toThrow(TypeError);
  });

  it("streams its body to whoever asks for the stream, and clones independently", async () => {
    const res = jsonResponse({ items: [1, 2, 3] });
    const copy = res.clone();
    expect(copy.status).toBe(200);
    expect(copy.headers.get("API-Version")).toBe("1");
    copy.headers.set("X-Only-On-Copy", "yes");
    expect(res.headers.has("X-Only-On-Copy")).toBe(false);
    const reader = res.body!.getReader();
    let text = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text).toBe('{"items":[1,2,3]}');
    expect(res.bodyUsed).toBe(true);
    expect(await copy.text()).toBe('{"items":[1,2,3]}');
    expect(new Uint8Array(await jsonResponse([true]).arrayBuffer())).toEqual(new TextEncoder().encode("[true]"));
  });

  it("adopts a Headers object it is given instead of copying it", () => {
    const headers = new Headers({ ETag: '"v2"' });
    const res = jsonResponse({}, 200, headers);
    expect(res.headers).toBe(headers);
    expect(headers.get("Content-Type")).toBe("application/json; charset=utf-8");
  });

  it("sends no body for 204 or for undefined", async () => {
    for (const res of [jsonResponse({ a: 1 }, 204), jsonResponse(undefined)]) {
      expect(res.body).toBeNull();
      expect(textOf(res)).toBeUndefined();
      expect(await res.text()).toBe("");
    }
  });
});
