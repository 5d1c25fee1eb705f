import { Link } from "@remix-run/react";
import { plural } from "~/utils/plural";

export interface TemplateCardData {
  id: string;
  name: string;
  description: string;
  category: string;
  templateType: string;
  sections: string[];
  tags: string[];
  usageCount: number;
  isFeatured: boolean;
}

const TYPE_LABEL: Record<string, string> = {
  system: "Built-in",
  marketplace: "Marketplace",
  organization: "Organization",
  personal: "Personal",
};

/** A template in a gallery: what it is for and a preview of its sections. */
export function TemplateCard({ t, href, action }: { t: TemplateCardData; href: string; action?: React.ReactNode }) {
  return (
    <article className="card template-card">
      <div className="inline" style={{ justifyContent: "space-between" }}>
        <span className="badge">{TYPE_LABEL[t.templateType] ?? t.templateType}</span>
        {t.isFeatured ? <span className="badge badge-brand">Featured</span> : null}
      </div>
      <h2>
        <Link to={href}>{t.name}</Link>
      </h2>
      <p className="muted">{t.description}</p>
      {t.sections.length ? (
        <details>
          <summary>{plural(t.sections.length, "section")}</summary>
          <ol className="section-list">
            {t.sections.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </details>
      ) : null}
      <div className="inline muted" style={{ fontSize: "0.85rem" }}>
        <span>{t.category}</span>
        {t.tags.slice(0, 4).map((tag) => (
          <span key={tag}>#{tag}</span>
        ))}
        <span>· used {t.usageCount}×</span>
      </div>
      {action ? <div style={{ marginTop: 10 }}>{action}</div> : null}
    </article>
  );
}
