/** The `curl` command that does what the form just did, with the key left as a variable. */
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
  const lines = [`curl${stream ? ' -N' : ''}${method === 'GET' ? '' : ` -X ${method}`} '${location.origin}${path}'`];
  lines.push(`  -H "Authorization: Bearer $GEN_PLATFORM_API_KEY"`);
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
