import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * The credential the curl commands show: the playground's short-lived token, which may be shown
 * (it expires within the hour); undefined for a key of the user's own, left as a variable.
 */
export const CurlCredential = createContext<string | undefined>(undefined);

/** The `curl` command that does what the form just did. */
export function Curl({
  method = 'POST',
  path,
  body,
  stream,
}: {
  method?: string;
  path: string;
  body?: unknown;
  stream?: boolean;
}) {
  const credential = useContext(CurlCredential);
  const lines = [`curl${stream ? ' -N' : ''}${method === 'GET' ? '' : ` -X ${method}`} '${location.origin}${path}'`];
  lines.push(`  -H "Authorization: Bearer ${credential ?? '$GEN_PLATFORM_API_KEY'}"`);
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${JSON.stringify(body, null, 2).replaceAll("'", "'\\''")}'`);
  }
  return (
    <details class="curl">
      <summary>Equivalent curl command</summary>
      <pre>
        <code>{lines.join(' \\\n')}</code>
      </pre>
    </details>
  );
}
