/** Hands a downloaded file to the browser to save under `name`, and returns the name. */
export function saveFile(blob: Blob, name: string): string {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the browser keeps its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}
