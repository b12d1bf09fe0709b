import { type ParsingLogEntry } from '@console/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { MESSAGES } from '../wording';

/** What the claim normalizer read from where (normalizeClaims' log). */
export function ParsingLogsCard({ log }: { log: ParsingLogEntry[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{MESSAGES.debugPages.tabParsingLogs}</CardTitle>
        <CardDescription>Each claim the console looked for, where it found it, and what it ignored.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table>
          <TableCaption className="sr-only">Claim parsing log</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Claim</TableHead>
              <TableHead>Source</TableHead>
              <TableHead>Value</TableHead>
              <TableHead>Note</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {log.map((entry, index) => (
              <TableRow key={index}>
                <TableCell className="font-medium">{entry.claim}</TableCell>
                <TableCell className="font-mono text-xs">{entry.source}</TableCell>
                <TableCell className="font-mono text-xs break-all whitespace-normal">
                  {entry.value === null ? '—' : typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value)}
                </TableCell>
                <TableCell className="text-muted-foreground">{entry.note ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
