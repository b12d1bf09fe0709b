import { Copy, Download, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { saveFile } from '@/lib/save-file';
import { MESSAGES } from '../wording';
import { copyText } from './copy-text';

const c = MESSAGES.security.codes;

/**
 * New recovery codes, shown this once (the server keeps only their hashes): the list, Copy,
 * Download as a text file, and a note to save them, until the person says they have.
 */
export function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const title = useRef<HTMLHeadingElement>(null);
  // The codes replace what was there: the focus moves to them, so nobody misses them.
  useEffect(() => title.current?.focus(), []);
  const text = `${codes.join('\n')}\n`;
  return (
    <section aria-labelledby="recovery-codes-title" className="space-y-4">
      <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        <TriangleAlert aria-hidden />
        <AlertTitle>
          <h3 id="recovery-codes-title" ref={title} tabIndex={-1} className="outline-none">
            {c.title}
          </h3>
        </AlertTitle>
        <AlertDescription className="text-inherit">{c.saveNow}</AlertDescription>
      </Alert>
      <ul
        aria-label={c.listLabel}
        className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-4 font-mono text-sm min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="select-all">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void copyText(text, c.copied)}>
          <Copy aria-hidden />
          {c.copy}
        </Button>
        <Button type="button" variant="outline" onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), c.fileName)}>
          <Download aria-hidden />
          {c.download}
        </Button>
        <Button type="button" onClick={onDone}>
          {c.done}
        </Button>
      </div>
    </section>
  );
}
