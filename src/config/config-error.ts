/** A configuration that cannot be used; the message names the key and the rule. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
