import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { isAdmin } from "~/domain/actor";
import { appUrl } from "~/config.server";
import { MCP_TOOLS } from "~/http/mcp/mcp-tools.server";
import { MCP_PATH } from "~/http/mcp/mcp.server";
import { requireUiActor } from "~/http/ui/ui.server";
import mcpStyles from "~/styles/mcp.css?url";

export const meta: MetaFunction = () => [{ title: "Connect an AI agent (MCP) · Settings · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: mcpStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return { url: `${appUrl()}${MCP_PATH}`, isAdmin: isAdmin(actor), tools: MCP_TOOLS.map((t) => ({ ...t })) };
}

/** The copy-paste configurations, one per client (docs/mcp.md, "Connect"). */
function configs(url: string) {
  return [
    {
      id: "claude",
      client: "Claude Desktop",
      file: "claude_desktop_config.json",
      note: "Claude Desktop talks to local servers, so mcp-remote (run by npx, needs Node.js) bridges it to this one. Put your key in KEY.",
      config: {
        mcpServers: {
          "prd-studio": {
            command: "npx",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote fills ${KEY} from env
            args: ["mcp-remote", url, "--header", "Authorization: Bearer ${KEY}"],
            env: { KEY: "svc_your_key_here" },
          },
        },
      },
    },
    {
      id: "cursor",
      client: "Cursor",
      file: ".cursor/mcp.json",
      note: "In your project (or ~/.cursor/mcp.json for every project).",
      config: { mcpServers: { "prd-studio": { url, headers: { Authorization: "Bearer svc_your_key_here" } } } },
    },
    {
      id: "vscode",
      client: "VS Code",
      file: ".vscode/mcp.json",
      note: "VS Code asks for the key once and stores it securely.",
      config: {
        inputs: [{ type: "promptString", id: "prd-studio-key", description: "PRD Studio API key", password: true }],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code fills ${input:...} from the prompt
        servers: { "prd-studio": { type: "http", url, headers: { Authorization: "Bearer ${input:prd-studio-key}" } } },
      },
    },
  ];
}

export default function McpSettings() {
  const { url, isAdmin, tools } = useLoaderData<typeof loader>();
  return (
    <div className="stack mcp-page">
      <section className="card" aria-labelledby="mcp-heading">
        <h2 id="mcp-heading">Connect an AI agent (MCP)</h2>
        <p>
          AI assistants that speak the Model Context Protocol (Claude Desktop, Cursor, VS Code and others) can search your projects, read and write PRDs, answer
          the builder's questions and run the PRD checks — as the API key you give them, in this organization only.
        </p>
        <h3>1. The server URL</h3>
        <div className="secret-box">
          <code data-testid="mcp-url">{url}</code>
          <CopyButton value={url} />
        </div>
        <h3>2. An API key</h3>
        <p>
          The agent signs in with a REST API key.{" "}
          {isAdmin ? (
            <>
              Create one in <Link to="/settings/api-keys">Settings → API keys</Link>: choose <strong>Read</strong> for an agent that only reads,{" "}
              <strong>Write</strong> for one that creates projects, answers the builder, generates PRDs and comments.
            </>
          ) : (
            <>
              Owners and admins create them in <Link to="/settings/api-keys">Settings → API keys</Link>; ask one for a key with the Read or Write scope.
            </>
          )}{" "}
          Treat the key like a password: anyone with it can do what it allows.
        </p>
      </section>
      <section className="card" aria-labelledby="mcp-configs-heading">
        <h2 id="mcp-configs-heading">3. Your client's configuration</h2>
        <p>Copy the block for your client and replace the key.</p>
        {configs(url).map((c) => {
          const text = JSON.stringify(c.config, null, 2);
          return (
            <div className="mcp-config" key={c.id}>
              <h3 id={`mcp-${c.id}`}>
                {c.client}: <code>{c.file}</code>
              </h3>
              <p className="muted">{c.note}</p>
              <pre>
                <code>{text}</code>
              </pre>
              <CopyButton value={text} />
            </div>
          );
        })}
      </section>
      <section className="card" aria-labelledby="mcp-tools-heading">
        <h2 id="mcp-tools-heading">What the agent can do</h2>
        <p>
          Tools that change something need a key with the Write scope. Each PRD is also readable as a resource, <code>prd://projects/&lt;projectId&gt;</code>.
        </p>
        <dl className="mcp-tools">
          {tools.map((t) => (
            <div key={t.name}>
              <dt>
                <code>{t.name}</code>
              </dt>
              <dd>{t.summary}</dd>
            </div>
          ))}
        </dl>
        <p className="muted">
          Sending stories needs an issue tracker connected in <Link to="/settings/trackers">Settings → Issue trackers</Link>; the agent previews first, then
          sends.
        </p>
      </section>
    </div>
  );
}
