/**
 * Reloads the page (after an agent limit save, or from a load error screen), or leaves it for
 * another address. Callers go through `browser`, so a test replaces a method with
 * `vi.spyOn(browser, 'reload')`: a spy on an object works whichever test file first loaded this module.
 */
export const browser = {
  reload(): void {
    window.location.reload();
  },
  /** A full-page visit elsewhere: an identity provider's sign-in page. */
  assign(url: string): void {
    window.location.assign(url);
  },
};

export function reloadPage(): void {
  browser.reload();
}
