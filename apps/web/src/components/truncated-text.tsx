import { cn } from '@/lib/utils';

/** One line of text cut with an ellipsis where it does not fit; the whole text stays readable as a tooltip. */
export function TruncatedText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cn('truncate', className)} title={text}>
      {text}
    </div>
  );
}
