import { Form, Link, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";

/** GET filter form for template lists: search, category, extra fields, Apply/Clear. */
export function TemplateFilters({
  categories,
  clearHref,
  filtered,
  placeholder,
  children,
}: {
  categories: string[];
  clearHref: string;
  filtered: boolean;
  placeholder: string;
  children?: ReactNode;
}) {
  const [params] = useSearchParams();
  return (
    <Form method="get" className="card filters" role="search" aria-label="Filter templates">
      <div className="field grow">
        <label htmlFor="tf-search">Search</label>
        <input id="tf-search" name="search" type="search" defaultValue={params.get("search") ?? ""} placeholder={placeholder} />
      </div>
      <div className="field">
        <label htmlFor="tf-category">Category</label>
        <select id="tf-category" name="category" defaultValue={params.get("category") ?? ""}>
          <option value="">Any</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      {children}
      <div className="inline">
        <button className="btn btn-secondary" type="submit">
          Apply
        </button>
        {filtered ? <Link to={clearHref}>Clear</Link> : null}
      </div>
    </Form>
  );
}
