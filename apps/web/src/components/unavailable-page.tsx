/** A destination whose feature is not part of this version: says so instead of showing samples. */
export function UnavailablePage({ title }: { title: string }) {
  return (
    <section className="space-y-2">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">This page is not available in this version yet.</p>
    </section>
  );
}
