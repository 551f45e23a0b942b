/** A deployment's address as the model list and the logs show it: without a user name or password in it. */
export function withoutCredentials(target: string): string {
  if (!URL.canParse(target)) return target;
  const url = new URL(target);
  url.username = '';
  url.password = '';
  return url.href;
}
