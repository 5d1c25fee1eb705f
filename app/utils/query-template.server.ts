import type { CompiledQuery, Compilable } from "kysely";

/**
 * Queries built once per shape. kysely builds an immutable tree
 * and compiles it to SQL on every execution: for the project list that was
 * about a tenth of the request, more than the rest of the API layer. A
 * template is built and compiled once per shape (which filters are present,
 * the sort, the reader's kind), with `slot(name)` standing for every value;
 * each execution only puts the values into the parameter list.
 *
 * The shape key must name everything that changes the SQL text; the values
 * everything else. A slot is a string no request can send (it starts with a
 * NUL), and a slot left without a value is an error, not a silent NULL.
 */

const SLOT = "\u0000slot:";

/** A stand-in for a value of the query; typed as whatever the builder expects there. */
export const slot = <T = string>(name: string): T => `${SLOT}${name}` as unknown as T;

export class QueryTemplates {
  private compiled = new Map<string, CompiledQuery>();

  constructor(private readonly max = 200) {}

  /** The compiled query of this shape with the values in place of their slots. */
  fill<R>(shape: string, build: () => Compilable<R>, values: Record<string, unknown>): CompiledQuery<R> {
    let template = this.compiled.get(shape);
    if (!template) {
      template = build().compile();
      if (this.compiled.size >= this.max) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(shape, template);
    }
    const parameters = template.parameters.map((p) => {
      if (typeof p !== "string" || !p.startsWith(SLOT)) return p;
      const name = p.slice(SLOT.length);
      if (!(name in values)) throw new Error(`Query template ${shape}: no value for ${name}`);
      return values[name];
    });
    return { ...template, parameters } as CompiledQuery<R>;
  }
}
