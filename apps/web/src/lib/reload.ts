/**
 * Reloads the page (after an agent limit save, or from a load error screen). Callers go
 * through `browser.reload`, so a test replaces it with `vi.spyOn(browser, 'reload')`: a spy on
 * an object works whichever test file first loaded this module.
 */
export const browser = {
  reload(): void {
    window.location.reload();
  },
};

export function reloadPage(): void {
  browser.reload();
}
