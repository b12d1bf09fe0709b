/** `like` treats % and _ as wildcards: a search for "50%" must match the text "50%". */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The day after a YYYY-MM-DD date: an inclusive end date runs to the start of the next day. */
export function upperBound(to: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(to)) return to;
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}
