import Bowser from 'bowser';

/** A session's device as a person names it, read from its user agent: "Chrome on Linux". */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  const name = browser.name?.trim();
  const system = os.name?.trim();
  if (name && system) return `${name} on ${system}`;
  return name || system || 'Unknown device';
}
