import type { MetaDescriptor } from "@remix-run/node";

/** Title, description and Open Graph tags for a public, indexable page. */
export function seo({ title, description, url, type = "website" }: { title: string; description: string; url?: string; type?: string }) {
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:site_name", content: "PRD Studio" },
    { name: "twitter:card", content: "summary" },
  ];
  if (url) tags.push({ property: "og:url", content: url }, { tagName: "link", rel: "canonical", href: url });
  return tags;
}
