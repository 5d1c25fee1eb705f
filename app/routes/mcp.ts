import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleMcp } from "~/http/mcp/mcp.server";

/**
 * The Model Context Protocol endpoint (docs/mcp.md): POST carries the
 * JSON-RPC exchange; GET and DELETE answer 405 after authentication (the
 * server is stateless). The endpoint is app/http/mcp/mcp.server.ts, the tools mcp-tools.server.ts.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => handleMcp(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => handleMcp(request, context);
