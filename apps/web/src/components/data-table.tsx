import { UI } from '@console/domain';
import { Fragment, type ReactNode } from 'react';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useMediaQuery } from '@/lib/use-media-query';

/** One column: its heading and the cell it shows for each row. */
export interface Column<Row> {
  head: ReactNode;
  headClassName?: string;
  className?: string;
  cell(row: Row): ReactNode;
}

interface DataTableProps<Row extends { id: string }> {
  /** The table's accessible name. */
  label?: string;
  /** A caption for assistive technology only, for a table named by no label. */
  caption?: string;
  /** The columns in order; `false` leaves a column out (one the user may not use). */
  columns: (Column<Row> | false)[];
  rows: Row[];
  rowClassName?(row: Row): string | undefined;
}

/** A table with one row a record, its columns given as heading and cell. */
export function DataTable<Row extends { id: string }>({ label, caption, columns, rows, rowClassName }: DataTableProps<Row>) {
  const shown = columns.filter((column): column is Column<Row> => column !== false);
  return (
    <Table aria-label={label}>
      {caption && <TableCaption className="sr-only">{caption}</TableCaption>}
      <TableHeader>
        <TableRow>
          {shown.map((column, index) => (
            <TableHead key={index} className={column.headClassName}>
              {column.head}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} className={rowClassName?.(row)}>
            {shown.map((column, index) => (
              <TableCell key={index} className={column.className}>
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The table on a wide screen; on a narrow one, where its columns do not fit, a list of
 * cards under the same name, one a row (`card` renders the list item).
 */
export function ResponsiveDataTable<Row extends { id: string }>({ card, ...table }: DataTableProps<Row> & { card(row: Row): ReactNode }) {
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  if (wide) return <DataTable {...table} />;
  return (
    <ul className="space-y-3" aria-label={table.label}>
      {table.rows.map((row) => (
        <Fragment key={row.id}>{card(row)}</Fragment>
      ))}
    </ul>
  );
}
