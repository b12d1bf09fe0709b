/** The recovery token of a reset link's hash (`#access_token=...&type=recovery`), or null. */
export function recoveryToken(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return params.get('type') === 'recovery' ? params.get('access_token') || null : null;
}
