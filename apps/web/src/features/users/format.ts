/** Within the next 24 hours (the invitations list highlights these). */
export function expiresSoon(expiresAt: string, now = Date.now()): boolean {
  const left = new Date(expiresAt).getTime() - now;
  return left <= 24 * 60 * 60 * 1000;
}
