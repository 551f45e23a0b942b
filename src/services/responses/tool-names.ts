/**
 * A namespace tool groups functions under a shared name (Codex sends its sub-agent tools this
 * way). The model sees each inner tool as one function named `<namespace>__<name>`; its calls go
 * back to the client with the inner `name` and the `namespace` apart, as OpenAI's API gives them.
 */
export const NAMESPACE_SEPARATOR = '__';

/** The function name the model sees for a tool, inside a namespace or not. */
export const chatToolName = (name: string, namespace?: string): string =>
  namespace === undefined || namespace === '' ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;

/** What a tool the model called is to the client. */
export interface ClientTool {
  name: string;
  namespace?: string;
  /** A free-form (custom) tool: its call goes back as a `custom_tool_call` with text input. */
  custom: boolean;
}

/** The tools of a request, by the name the model calls them. */
export type ClientTools = ReadonlyMap<string, ClientTool>;
