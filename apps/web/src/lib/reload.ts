/** Reloads the page (after an agent limit save). A module of its own so tests can replace it. */
export function reloadPage(): void {
  window.location.reload();
}
