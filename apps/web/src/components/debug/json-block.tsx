/** A labelled, scrollable JSON view; focusable, so that it scrolls with the keyboard too. */
export function JsonBlock({ label, value }: { label: string; value: unknown }) {
  return (
    <section className="min-w-0 space-y-2">
      <h3 className="text-sm font-medium">{label}</h3>
      <pre
        className="max-h-80 overflow-auto rounded-md bg-muted p-3 text-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        aria-label={label}
        tabIndex={0}
      >
        {value === null || value === undefined ? 'Not available' : JSON.stringify(value, null, 2)}
      </pre>
    </section>
  );
}
