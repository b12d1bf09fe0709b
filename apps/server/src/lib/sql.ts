/** `like` treats % and _ as wildcards: a search for "50%" must match the text "50%". */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
