import type { InvoiceParty } from '@console/domain';
import { MESSAGES } from '../wording';

const w = MESSAGES.invoicePages;

/** One party as printed on the invoice: legal name, address on its lines, tax id. */
function Party({ heading, party }: { heading: string; party: InvoiceParty }) {
  return (
    <div className="min-w-0 space-y-1 text-sm">
      <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{heading}</h3>
      <p className="font-medium wrap-anywhere">{party.legal_name || party.name}</p>
      {party.legal_name && party.legal_name !== party.name && <p className="text-muted-foreground wrap-anywhere">{party.name}</p>}
      {party.address && <p className="whitespace-pre-line wrap-anywhere">{party.address}</p>}
      {party.tax_id && (
        <p>
          <span className="text-muted-foreground">{w.taxId}: </span>
          {party.tax_id}
        </p>
      )}
    </div>
  );
}

/** The seller and the buyer side by side (one above the other on a narrow screen), as frozen at issue. */
export function InvoiceParties({ seller, buyer }: { seller: InvoiceParty; buyer: InvoiceParty }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2">
      <Party heading={w.from} party={seller} />
      <Party heading={w.billedTo} party={buyer} />
    </div>
  );
}
